import { createHash } from 'node:crypto';
import type { LoadedConfig } from './load.js';

/**
 * The fingerprint of the config sections (or dotted paths into them) a stage reads. Interpolated values are hashed as
 * their `${VAR}` template, so rotating a token never invalidates finished work.
 */
export function sectionFingerprint(loaded: LoadedConfig, sections: readonly string[]): string {
  const cfg = loaded.config as unknown as Record<string, unknown>;
  // A section name, or a dotted path into one (`inject.seed`) when only some of its keys decide a stage's outputs.
  const picked = Object.fromEntries(
    sections.map((s) => {
      const path = s.split('.');
      const value = path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), cfg);
      return [s, withTemplates(value, path, loaded.templates)];
    }),
  );
  return sha256(stableStringify(picked)).slice(0, 16);
}

function withTemplates(value: unknown, path: string[], templates: Map<string, string>): unknown {
  const t = templates.get(path.join('.'));
  if (t !== undefined) return t;
  if (Array.isArray(value)) return value.map((v, i) => withTemplates(v, [...path, String(i)], templates));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTemplates(v, [...path, k], templates)]));
  }
  return value;
}

export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  }) ?? 'null';
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
