import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import TOML from '@iarna/toml';
import YAML from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { registerSecret } from '../log/secrets.js';
import { configSchema, type Config } from './schema.js';

export interface LoadedConfig {
  file: string;
  config: Config;
  /** Raw `${VAR}` templates by dotted path, so fingerprints never depend on secret values. */
  templates: Map<string, string>;
}

export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`${file}: cannot read config file (${code ?? String(err)})`);
  }
  return parseConfig(text, file, env);
}

export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const raw = parseDocument(text, file);
  const templates = new Map<string, string>();
  const interpolated = interpolate(raw, [], file, env, templates);
  // reportInput: without it zod 4 leaves `input` off every issue, and a wrong type would be
  // described as a missing key.
  const result = configSchema.safeParse(interpolated, { reportInput: true });
  if (!result.success) throw new ConfigError(formatIssues(file, result.error.issues));
  return { file, config: result.data, templates };
}

function parseDocument(text: string, file: string): unknown {
  const ext = extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    const doc = YAML.parseDocument(text);
    if (doc.errors.length > 0) throw new ConfigError(`${file}: invalid YAML: ${doc.errors[0]!.message}`);
    return doc.toJS() ?? {};
  }
  if (ext !== '.toml') throw new ConfigError(`${file}: unknown config format "${ext}" (expected .toml, .yaml or .yml)`);
  try {
    return TOML.parse(text);
  } catch (err) {
    const e = err as { line?: number; col?: number; message: string };
    const where = e.line !== undefined ? ` at line ${e.line + 1}, column ${(e.col ?? 0) + 1}` : '';
    throw new ConfigError(`${file}: invalid TOML${where}: ${e.message.split('\n')[0]}`);
  }
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` in string values; a missing variable without a default is an error. */
function interpolate(value: unknown, path: string[], file: string, env: NodeJS.ProcessEnv, templates: Map<string, string>): unknown {
  if (typeof value === 'string') {
    if (!VAR.test(value)) return value;
    VAR.lastIndex = 0;
    templates.set(path.join('.'), value);
    return value.replace(VAR, (_m, name: string, fallback: string | undefined) => {
      const v = env[name];
      if (v !== undefined && v !== '') {
        registerSecret(v);
        // A list of tokens (GITHUB_TOKENS=a,b) must not leak one element at a time either.
        for (const part of v.split(/[\s,;]+/)) registerSecret(part);
        return v;
      }
      if (fallback !== undefined) return fallback;
      throw new ConfigError(`${file}: ${path.join('.')}: environment variable ${name} is not set (write \${${name}:-} to make it optional)`);
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, [...path, String(i)], file, env, templates));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, [...path, k], file, env, templates)]));
  }
  return value;
}

export function formatIssues(file: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => `${file}: ${at ? `${at}.` : ''}${k}: unknown key`).join('\n');
    }
    return `${file}: ${at || '(top level)'}: ${describe(issue)}`;
  });
  return lines.join('\n');
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    if ((issue as { input?: unknown }).input === undefined) return `missing required key (expected ${issue.expected})`;
    return `expected ${issue.expected}, got ${typeName((issue as { input?: unknown }).input)}`;
  }
  return issue.message;
}

function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v === null) return 'null';
  return typeof v === 'string' ? `string ${JSON.stringify(v)}` : typeof v;
}
