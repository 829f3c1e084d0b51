import TOML from '@iarna/toml';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import YAML from 'yaml';
import type { Findings, RepoFiles } from './safe-files.js';

/**
 * Parsed manifests, each read and parsed at most once per inspection so that a broken file is
 * reported once however many detectors look at it.
 *
 * States: `missing`/`unsafe` mean there is no usable file at that path; `unusable` is a regular
 * file too large or binary to parse; `invalid` failed to parse (the text is kept for callers that
 * can still learn something from it); `ok` carries the parsed value.
 */
export type Parsed<T> =
  | { state: 'missing' }
  | { state: 'unsafe' }
  | { state: 'unusable' }
  | { state: 'invalid'; text: string }
  | { state: 'ok'; value: T; text: string };

/** A file that exists in the repository counts as evidence by name even when unparseable. */
export function isEvidence(p: Parsed<unknown>): boolean {
  return p.state === 'ok' || p.state === 'invalid' || p.state === 'unusable';
}

export type JsonObject = Record<string, unknown>;

export type IniSections = Map<string, Map<string, string>>;

type Kind = 'text' | 'toml' | 'xml' | 'yaml' | 'json' | 'ini';

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  // Keep "1.8" a string: numeric parsing would turn it into 1.8 and "1.10" into 1.1.
  parseTagValue: false,
  trimValues: true,
  removeNSPrefix: true,
});

export class Manifests {
  private readonly cache = new Map<string, Promise<Parsed<unknown>>>();

  constructor(
    readonly files: RepoFiles,
    private readonly findings: Findings,
  ) {}

  text(rel: string): Promise<Parsed<string>> {
    return this.load(rel, 'text', (text) => ({ value: text }));
  }

  toml(rel: string): Promise<Parsed<JsonObject>> {
    return this.load(rel, 'toml', parseToml);
  }

  /** The XML document as plain objects; element text stays a string. */
  xml(rel: string): Promise<Parsed<JsonObject>> {
    return this.load(rel, 'xml', parseXml);
  }

  yaml(rel: string): Promise<Parsed<unknown>> {
    return this.load(rel, 'yaml', parseYaml);
  }

  json(rel: string): Promise<Parsed<unknown>> {
    return this.load(rel, 'json', parseJson);
  }

  /** setup.cfg-style INI; lenient like configparser with continuation lines ignored. */
  ini(rel: string): Promise<Parsed<IniSections>> {
    return this.load(rel, 'ini', (text) => ({ value: parseIni(text) }));
  }

  private load<T>(rel: string, kind: Kind, parse: (text: string) => { value: T } | { error: string }): Promise<Parsed<T>> {
    const key = `${kind}\0${rel}`;
    let pending = this.cache.get(key) as Promise<Parsed<T>> | undefined;
    if (!pending) {
      pending = this.files.readText(rel).then((read): Parsed<T> => {
        if (!read.ok) {
          if (read.reason === 'missing') return { state: 'missing' };
          if (read.reason === 'unsafe') return { state: 'unsafe' };
          return { state: 'unusable' };
        }
        const parsed = parse(read.text);
        if ('error' in parsed) {
          this.findings.add(rel, parsed.error);
          return { state: 'invalid', text: read.text };
        }
        return { state: 'ok', value: parsed.value, text: read.text };
      });
      this.cache.set(key, pending);
    }
    return pending;
  }
}

function parseToml(text: string): { value: JsonObject } | { error: string } {
  try {
    return { value: TOML.parse(text) as JsonObject };
  } catch (error) {
    const e = error as { message?: string; line?: number };
    // @iarna/toml appends " at row R, col C, pos P:" and a code excerpt; keep the sentence.
    const message = firstLine(e.message ?? String(error)).replace(/ at row \d+, col \d+, pos \d+:?$/, '');
    const line = typeof e.line === 'number' ? ` (line ${e.line + 1})` : '';
    return { error: `invalid TOML: ${message}${line}` };
  }
}

function parseXml(text: string): { value: JsonObject } | { error: string } {
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    return { error: `invalid XML: ${verdict.err.msg} (line ${verdict.err.line})` };
  }
  try {
    return { value: xmlParser.parse(text) as JsonObject };
  } catch (error) {
    return { error: `invalid XML: ${firstLine(error instanceof Error ? error.message : String(error))}` };
  }
}

function parseYaml(text: string): { value: unknown } | { error: string } {
  const doc = YAML.parseDocument(text);
  const problem = doc.errors[0];
  if (problem) {
    // The yaml package appends " at line L, column C:" and an excerpt; report the line once.
    const message = firstLine(problem.message).replace(/ at line \d+, column \d+:?$/, '');
    const line = problem.linePos ? ` (line ${problem.linePos[0].line})` : '';
    return { error: `invalid YAML: ${message}${line}` };
  }
  try {
    return { value: doc.toJS() as unknown };
  } catch (error) {
    return { error: `invalid YAML: ${firstLine(error instanceof Error ? error.message : String(error))}` };
  }
}

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = firstLine(error instanceof Error ? error.message : String(error));
    const position = /position (\d+)/.exec(message);
    const line = position ? ` (line ${text.slice(0, Number(position[1])).split('\n').length})` : '';
    return { error: `invalid JSON: ${message}${line}` };
  }
}

export function parseIni(text: string): IniSections {
  const sections: IniSections = new Map();
  let current: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (/^\s*[#;]/.test(line) || line.trim() === '') continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      const name = header[1]!.trim().toLowerCase();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    if (!current || /^\s/.test(line)) continue;
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (pair) current.set(pair[1]!.trim().toLowerCase().replace(/-/g, '_'), pair[2]!.trim());
  }
  return sections;
}

/** Reads Java-style .properties (`key=value`, `key: value`, backslash escapes). */
export function parseProperties(text: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const pair = /^((?:\\.|[^=:\s])+)\s*[=:\s]\s*(.*)$/.exec(line);
    if (pair) props.set(unescape(pair[1]!), unescape(pair[2]!));
  }
  return props;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/** Helpers for walking the loosely-typed values the parsers return. */
export function asTable(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

export function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** Follows a path of keys through nested tables; undefined when any step is missing. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let current: unknown = value;
  for (const key of keys) {
    const table = asTable(current);
    if (!table) return undefined;
    current = table[key];
  }
  return current;
}
