import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { clearSecrets, redact } from '../log/secrets.js';
import { sectionFingerprint } from './fingerprint.js';
import { loadConfig, parseConfig } from './load.js';

const FILE = 'run.toml';

/** A complete, valid TOML config; `extraSearch` lines are appended to the [search] section. */
function toml(extraSearch = '', opts: { exportValue?: string; top?: string } = {}): string {
  return [
    'dataset = "demo"',
    opts.top ?? '',
    '[run]',
    'jobs = 2',
    '',
    '[search]',
    `export = "${opts.exportValue ?? 'data/samples/seart-ghs/results.csv'}"`,
    'languages = ["Python", "Java"]',
    'min_stars = 10',
    'licenses = ["MIT", "Apache-2.0"]',
    extraSearch,
    '',
  ].join('\n');
}

/** Parses and returns the ConfigError message; fails the test if nothing (or something else) is thrown. */
function configError(text: string, file = FILE, env: NodeJS.ProcessEnv = {}): string {
  let caught: unknown;
  try {
    parseConfig(text, file, env);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return (caught as ConfigError).message;
}

afterEach(() => clearSecrets());

describe('parseConfig: a valid config', () => {
  it('parses TOML and fills defaults', () => {
    const { config, file } = parseConfig(toml(), FILE, {});
    expect(file).toBe(FILE);
    expect(config.dataset).toBe('demo');
    expect(config.data_dir).toBe('data');
    expect(config.run.jobs).toBe(2);
    expect(config.run.batch_size).toBe(100);
    expect(config.search).toMatchObject({
      source: 'seart',
      export: 'data/samples/seart-ghs/results.csv',
      languages: ['Python', 'Java'],
      min_commits: 1000,
      min_issues: 10,
      min_contributors: 10,
      min_stars: 10,
      last_commit_after: '2024-01-01',
      licenses: ['MIT', 'Apache-2.0'],
      exclude_forks: true,
      exclude_archived: true,
    });
  });

  it('a .yaml config parses equal to the TOML one', () => {
    const yaml = [
      'dataset: demo',
      'run:',
      '  jobs: 2',
      'search:',
      '  export: data/samples/seart-ghs/results.csv',
      '  languages: [Python, Java]',
      '  min_stars: 10',
      '  licenses:',
      '    - MIT',
      '    - Apache-2.0',
      '',
    ].join('\n');
    const fromToml = parseConfig(toml(), FILE, {}).config;
    expect(parseConfig(yaml, 'run.yaml', {}).config).toEqual(fromToml);
    expect(parseConfig(yaml, 'run.yml', {}).config).toEqual(fromToml);
  });

  it('accepts a date cutoff of YYYY-MM-DD, including a leap day', () => {
    const { config } = parseConfig(toml('last_commit_after = "2024-02-29"'), FILE, {});
    expect(config.search?.last_commit_after).toBe('2024-02-29');
  });
});

describe('parseConfig: errors name the file, the key and the expectation', () => {
  it('unknown top-level key', () => {
    const msg = configError(toml('', { top: 'datset = "x"' }));
    expect(msg).toContain(`${FILE}: datset: unknown key`);
  });

  it('unknown nested key (a typo cannot fall back to a default)', () => {
    const msg = configError(toml('min_comits = 5'));
    expect(msg).toContain(`${FILE}: search.min_comits: unknown key`);
  });

  it('wrong type: a quoted number', () => {
    const msg = configError(toml('min_commits = "1000"'));
    expect(msg).toContain(FILE);
    expect(msg).toContain('search.min_commits');
    expect(msg).toContain('expected number');
    expect(msg).toContain('got string "1000"');
    expect(msg).not.toContain('missing');
  });

  it('wrong type: a TOML date where a string is expected', () => {
    const msg = configError(toml('last_commit_after = 2024-01-01'));
    expect(msg).toContain('search.last_commit_after');
    expect(msg).toContain('expected string, got date');
  });

  it('wrong value: a negative count', () => {
    const msg = configError(toml('min_issues = -1'));
    expect(msg).toContain(`${FILE}: search.min_issues:`);
  });

  it('missing required key: dataset', () => {
    const text = toml().replace('dataset = "demo"\n', '');
    const msg = configError(text);
    expect(msg).toContain(`${FILE}: dataset: missing required key (expected string)`);
  });

  it('missing required key: search.export', () => {
    const text = toml().replace(/^export = .*\n/m, '');
    expect(text).not.toContain('export');
    const msg = configError(text);
    expect(msg).toContain(`${FILE}: search.export: missing required key (expected string)`);
  });

  it('reports every problem, not just the first', () => {
    const msg = configError(toml('min_comits = 5\nmin_stars_x = 1', { top: 'extra = 1' }));
    expect(msg).toContain('search.min_comits: unknown key');
    expect(msg).toContain('search.min_stars_x: unknown key');
    expect(msg).toContain('extra: unknown key');
  });

  it('invalid TOML names the line', () => {
    const text = 'dataset = "demo"\n\n[search\nexport = "x"\n';
    const msg = configError(text);
    expect(msg).toContain(`${FILE}: invalid TOML`);
    expect(msg).toMatch(/line 3\b/);
  });

  it('invalid YAML', () => {
    const msg = configError('dataset: demo\nsearch: [unclosed\n  export: x\n', 'run.yaml');
    expect(msg).toContain('run.yaml: invalid YAML');
  });

  it('YAML content is checked by the same schema', () => {
    const msg = configError('dataset: demo\nsearch:\n  export: x\n  licenses: [MIT]\n  min_commits: "1000"\n', 'run.yaml');
    expect(msg).toContain('run.yaml: search.min_commits: expected number');
  });

  it('unsupported extension', () => {
    const msg = configError('{"dataset": "demo"}', 'run.json');
    expect(msg).toContain('run.json');
    expect(msg).toContain('".json"');
    expect(msg).toContain('expected .toml, .yaml or .yml');
  });

  it('a time of day in last_commit_after is rejected with the 12-hour explanation', () => {
    const msg = configError(toml('last_commit_after = "2024-01-01T10:00:00"'));
    expect(msg).toContain(`${FILE}: search.last_commit_after:`);
    expect(msg).toContain('YYYY-MM-DD');
    expect(msg).toContain('12 hours');
  });

  it.each(['2024-02-30', '2023-02-29', '2024-13-01', '2024-04-31'])('an impossible date %s is rejected', (date) => {
    const msg = configError(toml(`last_commit_after = "${date}"`));
    expect(msg).toContain(`${FILE}: search.last_commit_after: not a calendar date`);
  });

  it('an invalid dataset name', () => {
    const msg = configError(toml().replace('dataset = "demo"', 'dataset = "../etc"'));
    expect(msg).toContain(`${FILE}: dataset:`);
    expect(msg).toContain('expected a name of letters, digits');
  });
});

describe('environment interpolation', () => {
  it('${VAR} is replaced by the variable', () => {
    const { config } = parseConfig(toml('', { exportValue: '${EXPORT_DIR}/results.csv' }), FILE, { EXPORT_DIR: '/srv/exports' });
    expect(config.search?.export).toBe('/srv/exports/results.csv');
  });

  it('${VAR:-default} uses the default when the variable is unset or empty', () => {
    const text = toml('', { exportValue: '${EXPORT_FILE:-fallback.csv}' });
    expect(parseConfig(text, FILE, {}).config.search?.export).toBe('fallback.csv');
    expect(parseConfig(text, FILE, { EXPORT_FILE: '' }).config.search?.export).toBe('fallback.csv');
    expect(parseConfig(text, FILE, { EXPORT_FILE: 'given.csv' }).config.search?.export).toBe('given.csv');
  });

  it('interpolates inside arrays', () => {
    const text = toml().replace('languages = ["Python", "Java"]', 'languages = ["${LANG_ONE}", "Java"]');
    expect(parseConfig(text, FILE, { LANG_ONE: 'Kotlin' }).config.search?.languages).toEqual(['Kotlin', 'Java']);
  });

  it('a missing variable without default names the key and the variable', () => {
    const msg = configError(toml('', { exportValue: '${MISSING_EXPORT}' }));
    expect(msg).toContain(`${FILE}: search.export:`);
    expect(msg).toContain('MISSING_EXPORT');
    expect(msg).toContain('not set');
  });

  it('the value of an interpolated variable is registered as a secret', () => {
    const token = 'ghp_supersecretvalue123';
    expect(redact(`using ${token}`)).toBe(`using ${token}`);
    parseConfig(toml('', { exportValue: 'https://example.com/${SOME_TOKEN}' }), FILE, { SOME_TOKEN: token });
    expect(redact(`using ${token} now`)).toBe('using *** now');
    clearSecrets();
    expect(redact(`using ${token}`)).toBe(`using ${token}`);
  });
});

describe('loadConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envforge-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads and parses a file', async () => {
    const file = join(dir, 'ok.toml');
    await writeFile(file, toml('', { exportValue: '${X_EXPORT}' }));
    const loaded = await loadConfig(file, { X_EXPORT: 'from-env.csv' });
    expect(loaded.file).toBe(file);
    expect(loaded.config.search?.export).toBe('from-env.csv');
  });

  it('an unreadable file is a ConfigError naming the file and ENOENT', async () => {
    const file = join(dir, 'does-not-exist.toml');
    const err = await loadConfig(file, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('ENOENT');
  });

  it('errors from a loaded file name that file', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'dataset: demo\nsearch:\n  export: x\n  licenses: [MIT]\n  min_comits: 5\n');
    await expect(loadConfig(file, {})).rejects.toThrow(`${file}: search.min_comits: unknown key`);
  });
});

describe('sectionFingerprint', () => {
  it('is the same for the same config, and independent of key order and format', () => {
    const a = parseConfig(toml(), FILE, {});
    const b = parseConfig(toml(), FILE, {});
    expect(sectionFingerprint(a, ['search'])).toBe(sectionFingerprint(b, ['search']));
    expect(sectionFingerprint(a, ['search'])).toMatch(/^[0-9a-f]{16}$/);

    const reordered = toml().replace('min_stars = 10\n', '').replace('[search]\n', '[search]\nmin_stars = 10\n');
    expect(reordered).not.toBe(toml());
    expect(sectionFingerprint(parseConfig(reordered, FILE, {}), ['search'])).toBe(sectionFingerprint(a, ['search']));
  });

  it('changing search.min_stars changes the search fingerprint but not the run one', () => {
    const a = parseConfig(toml(), FILE, {});
    const b = parseConfig(toml().replace('min_stars = 10', 'min_stars = 11'), FILE, {});
    expect(b.config.search?.min_stars).toBe(11);
    expect(sectionFingerprint(b, ['search'])).not.toBe(sectionFingerprint(a, ['search']));
    expect(sectionFingerprint(b, ['run'])).toBe(sectionFingerprint(a, ['run']));
  });

  it('changing run.jobs changes the run fingerprint but not the search one', () => {
    const a = parseConfig(toml(), FILE, {});
    const b = parseConfig(toml().replace('jobs = 2', 'jobs = 3'), FILE, {});
    expect(sectionFingerprint(b, ['run'])).not.toBe(sectionFingerprint(a, ['run']));
    expect(sectionFingerprint(b, ['search'])).toBe(sectionFingerprint(a, ['search']));
  });

  it('covers every listed section', () => {
    const a = parseConfig(toml(), FILE, {});
    expect(sectionFingerprint(a, ['run', 'search'])).not.toBe(sectionFingerprint(a, ['search']));
    const b = parseConfig(toml().replace('jobs = 2', 'jobs = 3'), FILE, {});
    expect(sectionFingerprint(b, ['run', 'search'])).not.toBe(sectionFingerprint(a, ['run', 'search']));
  });

  it('a secret from the environment is hashed as its template, and is registered for redaction', () => {
    const text = toml('', { exportValue: '${SOME_TOKEN}' });
    const first = parseConfig(text, FILE, { SOME_TOKEN: 'first-secret-value' });
    const second = parseConfig(text, FILE, { SOME_TOKEN: 'second-secret-value' });
    expect(first.config.search?.export).toBe('first-secret-value');
    expect(second.config.search?.export).toBe('second-secret-value');
    expect(first.templates.get('search.export')).toBe('${SOME_TOKEN}');
    expect(sectionFingerprint(first, ['search'])).toBe(sectionFingerprint(second, ['search']));

    // The same config with a literal value differs: the template, not nothing, is hashed.
    const literal = parseConfig(toml('', { exportValue: 'first-secret-value' }), FILE, {});
    expect(sectionFingerprint(literal, ['search'])).not.toBe(sectionFingerprint(first, ['search']));

    expect(redact('token=first-secret-value; other=second-secret-value')).toBe('token=***; other=***');
  });
});

describe('list-valued secrets', () => {
  it('registers each element of a comma-separated token list for redaction', () => {
    clearSecrets();
    parseConfig(
      'dataset = "d"\n[search]\nexport = "${TOKENS}"\nlicenses = ["MIT"]\n',
      'list.toml',
      { TOKENS: 'ghp_firsttoken111,ghp_secondtoken222' },
    );
    expect(redact('used ghp_secondtoken222 after ghp_firsttoken111')).toBe('used *** after ***');
    clearSecrets();
  });
});
