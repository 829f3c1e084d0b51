import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../pipeline/config/load.js';
import type { SearchSettings } from '../../pipeline/config/schema.js';
import { ConfigError, SetupError } from '../../pipeline/errors.js';
import { silentLogger } from '../../pipeline/log/logger.js';
import type { Outcome, StageContext } from '../../pipeline/stage.js';
import { firstFailure } from './criteria.js';
import { searchStage, seartExportSource } from './index.js';
import { toSpdx } from './licenses.js';
import { parseSeartExport, readSeartExport, type RawRecord } from './seart-export.js';
import { parseRecord, type RepoRecord } from './seart-record.js';

// ---------------------------------------------------------------------------------------------
// Fixtures: SEART-GHS records with all 35 columns, written as CSV (every value quoted, JSON
// columns as strings) or as JSON (native numbers, booleans, arrays and objects).

const COLUMNS = [
  'id', 'name', 'isFork', 'commits', 'branches', 'releases', 'forks', 'mainLanguage', 'defaultBranch', 'license',
  'homepage', 'watchers', 'stargazers', 'contributors', 'size', 'createdAt', 'pushedAt', 'updatedAt', 'totalIssues',
  'openIssues', 'totalPullRequests', 'openPullRequests', 'blankLines', 'codeLines', 'commentLines', 'metrics',
  'lastCommit', 'lastCommitSHA', 'hasWiki', 'isArchived', 'isDisabled', 'isLocked', 'languages', 'labels', 'topics',
] as const;

type Seart = Record<string, unknown>;

const SHA = '0123456789abcdef0123456789abcdef01234567';

/** One record that passes every criterion of the default config, exactly at each threshold. */
function seart(overrides: Seart = {}): Seart {
  return {
    id: 1001,
    name: 'octo/widget',
    isFork: false,
    commits: 1000,
    branches: 6,
    releases: 12,
    forks: 57,
    mainLanguage: 'Python',
    defaultBranch: 'main',
    license: 'MIT License',
    homepage: '',
    watchers: 18,
    stargazers: 10,
    contributors: 10,
    size: 2048,
    createdAt: '2019-03-04T10:20:30',
    pushedAt: '2024-06-11T03:12:44',
    updatedAt: '2024-06-11T03:12:44',
    totalIssues: 10,
    openIssues: 12,
    totalPullRequests: 210,
    openPullRequests: 4,
    blankLines: 3100,
    codeLines: 24000,
    commentLines: 2800,
    metrics: [{ language: 'Python', codeLines: 24000, commentLines: 2800, blankLines: 3100 }],
    lastCommit: '2024-06-11T03:12:44',
    lastCommitSHA: SHA,
    hasWiki: true,
    isArchived: false,
    isDisabled: false,
    isLocked: false,
    languages: { Python: 812345 },
    labels: ['bug', 'enhancement'],
    topics: [],
    ...overrides,
  };
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return quote('');
  if (typeof v === 'object') return quote(JSON.stringify(v));
  return quote(String(v));
}

function toCsv(records: Seart[]): string {
  const lines = [COLUMNS.map(quote).join(',')];
  for (const r of records) lines.push(COLUMNS.map((c) => csvCell(r[c])).join(','));
  return lines.join('\n') + '\n';
}

function toJson(records: Seart[]): string {
  return JSON.stringify({ parameters: { language: 'Python', minCommits: 1000 }, items: records }, null, 2);
}

// ---------------------------------------------------------------------------------------------
// A minimal stage context over a config with a [search] section (defaults unless overridden).

function context(searchExtra = '', exportFile = 'results.csv'): StageContext {
  const text = [
    'dataset = "test"',
    '[search]',
    `export = "${exportFile}"`,
    'licenses = ["MIT", "Apache-2.0", "BSD-3-Clause"]',
    searchExtra,
    '',
  ].join('\n');
  return {
    config: parseConfig(text, 'test.toml', {}),
    dataset: 'test',
    cacheDir: join(tmpdir(), 'envforge-search-test-cache'),
    log: silentLogger,
    signal: new AbortController().signal,
  };
}

const defaultCtx = context();

async function runAll(raws: RawRecord[], ctx: StageContext = defaultCtx): Promise<{ key: string; outcome: Outcome }[]> {
  const out: { key: string; outcome: Outcome }[] = [];
  for (const raw of raws) {
    const res = await searchStage.run(raw, ctx);
    const outcomes = Array.isArray(res) ? res : [res];
    expect(outcomes).toHaveLength(1);
    out.push({ key: searchStage.key(raw), outcome: outcomes[0]! });
  }
  return out;
}

/** The outcome for one record, read through the CSV path (strings) or the JSON path (native types). */
async function decide(overrides: Seart, format: 'csv' | 'json' = 'csv', ctx: StageContext = defaultCtx): Promise<Outcome> {
  const bytes = Buffer.from(format === 'csv' ? toCsv([seart(overrides)]) : toJson([seart(overrides)]));
  const raws = parseSeartExport(bytes, `results.${format}`);
  expect(raws).toHaveLength(1);
  const [only] = await runAll(raws, ctx);
  return only!.outcome;
}

function setupError(bytes: Buffer | string, file: string): string {
  let caught: unknown;
  try {
    parseSeartExport(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, file);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(SetupError);
  return (caught as Error).message;
}

// ---------------------------------------------------------------------------------------------

describe.each(['csv', 'json'] as const)('selection criteria at their boundaries (%s)', (format) => {
  const expectReason = async (overrides: Seart, reason: string) => {
    const o = await decide(overrides, format);
    expect(o.status, JSON.stringify(o)).toBe('rejected');
    expect(o.reason).toBe(reason);
    return o;
  };
  const expectAccepted = async (overrides: Seart) => {
    const o = await decide(overrides, format);
    expect(o.status, JSON.stringify(o)).toBe('accepted');
    expect(o.reason).toBeUndefined();
    return o;
  };

  it('a record exactly at every threshold is accepted', async () => {
    await expectAccepted({});
  });

  it('commits: 1000 passes, 999 is too few', async () => {
    await expectAccepted({ commits: 1000 });
    const o = await expectReason({ commits: 999 }, 'too_few_commits');
    expect(o.reason_text).toBe('999 commits, fewer than the minimum 1000');
  });

  it('issues: 10 passes, 9 is too few', async () => {
    await expectAccepted({ totalIssues: 10 });
    const o = await expectReason({ totalIssues: 9 }, 'too_few_issues');
    expect(o.reason_text).toContain('9 issues');
    // open issues do not count, only the total
    await expectAccepted({ totalIssues: 10, openIssues: 0 });
  });

  it('contributors: 10 passes, 9 is too few', async () => {
    await expectAccepted({ contributors: 10 });
    const o = await expectReason({ contributors: 9 }, 'too_few_contributors');
    expect(o.reason_text).toContain('9 contributors');
  });

  it('stars: 10 passes, 9 is too few (watchers do not count)', async () => {
    await expectAccepted({ stargazers: 10, watchers: 0 });
    const o = await expectReason({ stargazers: 9, watchers: 5000 }, 'too_few_stars');
    expect(o.reason_text).toContain('9 stars');
  });

  it('last commit: 2024-01-01 passes, 2023-12-31 is too old', async () => {
    await expectAccepted({ lastCommit: '2024-01-01T00:00:00' });
    const o = await expectReason({ lastCommit: '2023-12-31T11:59:59' }, 'last_commit_too_old');
    expect(o.reason_text).toContain('2023-12-31');
    expect(o.reason_text).toContain('2024-01-01');
  });

  it('a 12-hour clock time on the cutoff day still counts as that day', async () => {
    const o = await expectAccepted({ lastCommit: '2024-01-01T12:30:00' });
    expect(o.cells?.last_commit_date).toBe('2024-01-01');
    expect(o.cells?.last_commit_raw).toBe('2024-01-01T12:30:00');
  });

  it('the commit date is the one of lastCommit, not of pushedAt', async () => {
    await expectReason({ lastCommit: '2023-06-01T01:00:00', pushedAt: '2024-06-01T01:00:00' }, 'last_commit_too_old');
  });

  it('forks are excluded', async () => {
    const o = await expectReason({ isFork: true }, 'fork');
    expect(o.reason_text).toContain('fork');
  });

  it('archived repositories are excluded', async () => {
    await expectReason({ isArchived: true }, 'archived');
  });

  it('languages: only the selected ones, matched case-insensitively', async () => {
    await expectAccepted({ mainLanguage: 'Java' });
    await expectAccepted({ mainLanguage: 'Kotlin' });
    await expectAccepted({ mainLanguage: 'python' });
    await expectAccepted({ mainLanguage: 'KOTLIN' });
    const o = await expectReason({ mainLanguage: 'Go' }, 'language_not_selected');
    expect(o.reason_text).toContain('Go');
    const none = await expectReason({ mainLanguage: '' }, 'language_not_selected');
    expect(none.reason_text).toContain('(none)');
  });

  it('licenses: permissive names pass; GPL, none and "Other" do not', async () => {
    const mit = await expectAccepted({ license: 'MIT License' });
    expect(mit.cells?.license).toBe('MIT License');
    expect(mit.cells?.license_spdx).toBe('MIT');
    await expectAccepted({ license: 'Apache License 2.0' });
    await expectAccepted({ license: 'BSD 3-Clause "New" or "Revised" License' });
    const gpl = await expectReason({ license: 'GNU General Public License v3.0' }, 'license_not_allowed');
    expect(gpl.reason_text).toContain('GPL-3.0');
    await expectReason({ license: '' }, 'no_license');
    const other = await expectReason({ license: 'Other' }, 'license_not_allowed');
    expect(other.reason_text).toContain('Other');
    await expectReason({ license: 'Some Custom License' }, 'license_not_allowed');
  });

  it('the reason is the first failing criterion', async () => {
    // everything fails: the fork rule comes first
    const all = {
      isFork: true,
      isArchived: true,
      mainLanguage: 'Go',
      commits: 1,
      totalIssues: 1,
      contributors: 1,
      stargazers: 1,
      lastCommit: '2020-01-01T01:00:00',
      license: '',
    };
    await expectReason(all, 'fork');
    await expectReason({ ...all, isFork: false }, 'archived');
    await expectReason({ ...all, isFork: false, isArchived: false }, 'language_not_selected');
    await expectReason({ ...all, isFork: false, isArchived: false, mainLanguage: 'Java' }, 'too_few_commits');
    await expectReason({ totalIssues: 9, contributors: 9, stargazers: 9 }, 'too_few_issues');
    await expectReason({ contributors: 9, stargazers: 9, license: '' }, 'too_few_contributors');
    await expectReason({ stargazers: 9, lastCommit: '2023-12-31T01:00:00' }, 'too_few_stars');
    await expectReason({ lastCommit: '2023-12-31T01:00:00', license: 'Other' }, 'last_commit_too_old');
  });
});

describe('selection settings come from the config', () => {
  it('thresholds and exclusions follow [search]', async () => {
    const ctx = context('min_commits = 5\nexclude_forks = false\nlanguages = ["Go"]\nlast_commit_after = "2020-01-01"');
    expect((await decide({ commits: 5, isFork: true, mainLanguage: 'go', lastCommit: '2020-01-01T09:00:00' }, 'csv', ctx)).status).toBe('accepted');
    expect((await decide({ commits: 4, mainLanguage: 'Go' }, 'csv', ctx)).reason).toBe('too_few_commits');
    expect((await decide({ mainLanguage: 'Python' }, 'csv', ctx)).reason).toBe('language_not_selected');
  });

  it('the license allow-list is SPDX, matched case-insensitively', async () => {
    const ctx = context().config;
    const text = 'dataset = "test"\n[search]\nexport = "x.csv"\nlicenses = ["gpl-3.0"]\n';
    const gplCtx: StageContext = { ...context(), config: parseConfig(text, 'gpl.toml', {}) };
    expect(ctx.config.search?.licenses).toContain('MIT');
    expect((await decide({ license: 'GNU General Public License v3.0' }, 'csv', gplCtx)).status).toBe('accepted');
    expect((await decide({ license: 'MIT License' }, 'csv', gplCtx)).reason).toBe('license_not_allowed');
  });

  it('a config without [search] is a ConfigError naming the file', async () => {
    const ctx: StageContext = { ...context(), config: parseConfig('dataset = "x"\n', 'bare.toml', {}) };
    const raws = parseSeartExport(Buffer.from(toCsv([seart()])), 'r.csv');
    await expect(searchStage.run(raws[0]!, ctx)).rejects.toThrow(ConfigError);
    await expect(searchStage.run(raws[0]!, ctx)).rejects.toThrow(/bare\.toml: \[search\] section is missing/);
    expect(() => seartExportSource.read(ctx)).toThrow(ConfigError);
  });
});

describe('an accepted row carries the typed record and its origin', () => {
  it('cells', async () => {
    const o = await decide({ lastCommit: '2024-01-01T12:30:00', commits: 2400 });
    expect(o.status).toBe('accepted');
    expect(o.cells).toEqual({
      repository: 'octo/widget',
      ghs_id: 1001,
      language: 'Python',
      is_fork: false,
      is_archived: false,
      commits: 2400,
      total_issues: 10,
      open_issues: 12,
      contributors: 10,
      stars: 10,
      forks: 57,
      size_kb: 2048,
      license: 'MIT License',
      license_spdx: 'MIT',
      default_branch: 'main',
      created_date: '2019-03-04',
      pushed_date: '2024-06-11',
      last_commit_date: '2024-01-01',
      last_commit_raw: '2024-01-01T12:30:00',
      revision: SHA,
      source: 'seart',
      source_row: 1,
    });
    // every cell is a declared column
    for (const k of Object.keys(o.cells ?? {})) expect(searchStage.columns).toHaveProperty(k);
  });

  it('a rejected row carries the same cells', async () => {
    const o = await decide({ commits: 999 });
    expect(o.cells?.repository).toBe('octo/widget');
    expect(o.cells?.commits).toBe(999);
    expect(o.cells?.source_row).toBe(1);
  });

  it('the key is the repository name', () => {
    const raws = parseSeartExport(Buffer.from(toCsv([seart({ name: ' octo/widget ' })])), 'r.csv');
    expect(searchStage.key(raws[0]!)).toBe('octo/widget');
  });
});

describe('input formats agree', () => {
  // Accepted, rejected for several reasons, malformed, and one with a quoted field over two lines.
  const records = [
    seart({ id: 1, name: 'a/accepted', lastCommit: '2024-01-01T12:30:00' }),
    seart({ id: 2, name: 'b/few-commits', commits: 999 }),
    seart({ id: 3, name: 'c/gpl', license: 'GNU General Public License v3.0', mainLanguage: 'Java' }),
    seart({ id: 4, name: 'd/multiline', homepage: 'first line\nsecond "line"', mainLanguage: 'kotlin' }),
    seart({ id: 5, name: 'e/fork', isFork: true, isArchived: true }),
    seart({ id: 6, name: 'f/malformed', commits: 'many' }),
    seart({ id: 7, name: '', license: '' }),
    seart({ id: 8, name: 'h/old', lastCommit: '2023-12-31T11:00:00', license: 'Apache License 2.0' }),
  ];

  const csv = Buffer.from(toCsv(records));
  const json = Buffer.from(toJson(records));

  it('CSV, JSON, CSV.gz and JSON.gz give identical stage outputs', async () => {
    const fromCsv = await runAll(parseSeartExport(csv, 'results.csv'));
    const fromJson = await runAll(parseSeartExport(json, 'results.json'));
    const fromCsvGz = await runAll(parseSeartExport(gzipSync(csv), 'results.csv.gz'));
    const fromJsonGz = await runAll(parseSeartExport(gzipSync(json), 'results.json.gz'));

    expect(fromCsv.map((r) => [r.key, r.outcome.status, r.outcome.reason])).toEqual([
      ['a/accepted', 'accepted', undefined],
      ['b/few-commits', 'rejected', 'too_few_commits'],
      ['c/gpl', 'rejected', 'license_not_allowed'],
      ['d/multiline', 'accepted', undefined],
      ['e/fork', 'rejected', 'fork'],
      ['f/malformed', 'error', 'malformed_row'],
      ['row:7', 'error', 'malformed_row'],
      ['h/old', 'rejected', 'last_commit_too_old'],
    ]);
    expect(fromCsv.map((r) => r.outcome.cells?.source_row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(fromJson).toEqual(fromCsv);
    expect(fromCsvGz).toEqual(fromCsv);
    expect(fromJsonGz).toEqual(fromCsv);
  });

  it('gzip is detected by content, not by the file name', async () => {
    expect(await runAll(parseSeartExport(gzipSync(csv), 'results.csv'))).toEqual(await runAll(parseSeartExport(csv, 'results.csv')));
  });

  it('a top-level JSON array and a UTF-8 BOM are accepted', async () => {
    const fromCsv = await runAll(parseSeartExport(csv, 'results.csv'));
    expect(await runAll(parseSeartExport(Buffer.from(JSON.stringify(records)), 'items.json'))).toEqual(fromCsv);
    expect(await runAll(parseSeartExport(Buffer.from('\uFEFF' + toCsv(records)), 'bom.csv'))).toEqual(fromCsv);
  });

  it('CRLF line endings read the same', async () => {
    // record ends only: the newline inside the quoted homepage stays as it is
    const crlf = Buffer.from(toCsv(records).replace(/\n(?="|$)/g, '\r\n'));
    expect(crlf.toString()).toContain('\r\n');
    expect(await runAll(parseSeartExport(crlf, 'crlf.csv'))).toEqual(await runAll(parseSeartExport(csv, 'results.csv')));
  });

  it('an export with a header (or items) but no records yields no records', () => {
    expect(parseSeartExport(Buffer.from(toCsv([])), 'empty.csv')).toEqual([]);
    expect(parseSeartExport(Buffer.from(toJson([])), 'empty.json')).toEqual([]);
  });
});

describe('malformed rows become error outcomes and do not stop the others', () => {
  async function runCsv(text: string) {
    return runAll(parseSeartExport(Buffer.from(text), 'results.csv'));
  }

  const expectMalformed = (o: Outcome, ...fragments: string[]) => {
    expect(o.status, JSON.stringify(o)).toBe('error');
    expect(o.reason).toBe('malformed_row');
    for (const f of fragments) expect(o.reason_text).toContain(f);
  };

  it('a short CSV row', async () => {
    const lines = toCsv([seart({ name: 'a/one' }), seart({ name: 'b/two' }), seart({ name: 'c/three' })]).trimEnd().split('\n');
    // the second record loses its last 7 cells: isArchived and after are gone
    const short = seart({ name: 'b/two' });
    lines[2] = COLUMNS.slice(0, 28).map((c) => csvCell(short[c])).join(',');
    const out = await runCsv(lines.join('\n'));
    expect(out.map((r) => r.outcome.status)).toEqual(['accepted', 'error', 'accepted']);
    expectMalformed(out[1]!.outcome, 'row 2', 'expected 35 columns, found 28', 'isArchived: missing');
    expect(out[1]!.key).toBe('b/two');
    expect(out[1]!.outcome.cells).toEqual({ source: 'seart', source_row: 2 });
  });

  it('a missing column in a JSON item', async () => {
    const item = seart({ name: 'a/no-commits' });
    delete item.commits;
    const out = await runAll(parseSeartExport(Buffer.from(toJson([seart({ name: 'z/ok' }), item])), 'r.json'));
    expect(out[0]!.outcome.status).toBe('accepted');
    expectMalformed(out[1]!.outcome, 'row 2', 'commits: missing');
  });

  it('a non-numeric count names the field and the value', async () => {
    expectMalformed(await decide({ commits: 'many' }), 'commits', '"many"');
    expectMalformed(await decide({ stargazers: '1.5k' }), 'stargazers', '"1.5k"');
    expectMalformed(await decide({ contributors: '-3' }), 'contributors', '"-3"');
    expectMalformed(await decide({ totalIssues: 2.5 }, 'json'), 'totalIssues', '2.5');
  });

  it('a bad date names the field and the value', async () => {
    expectMalformed(await decide({ lastCommit: 'yesterday' }), 'lastCommit', '"yesterday"');
    expectMalformed(await decide({ lastCommit: '2024-02-30T10:00:00' }), 'lastCommit', '"2024-02-30T10:00:00"');
    expectMalformed(await decide({ createdAt: '03/04/2019' }), 'createdAt', '"03/04/2019"');
    expectMalformed(await decide({ lastCommit: '' }), 'lastCommit: missing');
  });

  it('a bad SHA names the field and the value', async () => {
    expectMalformed(await decide({ lastCommitSHA: 'not-a-sha' }), 'lastCommitSHA', '"not-a-sha"');
    expectMalformed(await decide({ lastCommitSHA: SHA.slice(0, 39) }), 'lastCommitSHA');
    // an absent SHA is fine: the clone stage pins the default branch
    expect((await decide({ lastCommitSHA: '' })).status).toBe('accepted');
  });

  it('a bad boolean or repository name', async () => {
    expectMalformed(await decide({ isFork: 'yes' }), 'isFork', '"yes"');
    expectMalformed(await decide({ name: 'not a repo name' }), 'name', '"not a repo name"');
  });

  it('every problem of a row is reported', async () => {
    const o = await decide({ commits: 'x', lastCommit: 'y', lastCommitSHA: 'z' });
    expectMalformed(o, 'commits', 'lastCommit', 'lastCommitSHA');
  });

  it('a missing name gives the key row:<n>', async () => {
    const out = await runCsv(toCsv([seart({ name: 'a/one' }), seart({ name: 'b/two' }), seart({ name: '' })]));
    expect(out.map((r) => r.key)).toEqual(['a/one', 'b/two', 'row:3']);
    expectMalformed(out[2]!.outcome, 'row 3', 'name: missing');
    expect(out[2]!.outcome.key).toBeUndefined();
  });

  it('a JSON item that is not an object', async () => {
    const doc = JSON.stringify({ parameters: {}, items: [seart({ name: 'a/one' }), 42, seart({ name: 'c/three' })] });
    const out = await runAll(parseSeartExport(Buffer.from(doc), 'r.json'));
    expect(out.map((r) => [r.key, r.outcome.status])).toEqual([
      ['a/one', 'accepted'],
      ['row:2', 'error'],
      ['c/three', 'accepted'],
    ]);
    expectMalformed(out[1]!.outcome, 'item 2 is not an object');
  });

  it('an unreadable CSV record is an error row and the numbering stays unique and in order', async () => {
    const lines = toCsv([
      seart({ name: 'a/one', homepage: 'two\nlines' }),
      seart({ name: 'b/two' }),
      seart({ name: 'c/three' }),
      seart({ name: '' }),
    ])
      .trimEnd()
      .split('\n');
    // the record of b/two (file line 4, after a two-line record) gets a stray quote
    expect(lines[3]).toContain('b/two');
    lines[3] = lines[3]!.replace('"octo', '"oc"to').replace('"b/two"', '"b/t"wo"');
    const raws = parseSeartExport(Buffer.from(lines.join('\n')), 'results.csv');
    expect(raws.map((r) => r.__row)).toEqual([1, 2, 3, 4]);
    const out = await runAll(raws);
    expect(out.map((r) => [r.key, r.outcome.status])).toEqual([
      ['a/one', 'accepted'],
      ['row:2', 'error'],
      ['c/three', 'accepted'],
      ['row:4', 'error'],
    ]);
    expectMalformed(out[1]!.outcome, 'row 2', 'unreadable CSV record');
    expect(new Set(out.map((r) => r.key)).size).toBe(out.length);
  });
});

describe('a file that is not an export stops the run with a SetupError', () => {
  it('random text', () => {
    const msg = setupError('hello world\nthis is not a csv file\n', 'notes.txt');
    expect(msg).toContain('notes.txt');
    expect(msg).toContain('not a SEART-GHS export');
  });

  it('a CSV with another header names the missing columns', () => {
    const msg = setupError('"repo","stars"\n"a/b","10"\n', 'other.csv');
    expect(msg).toContain('other.csv');
    expect(msg).toContain('header');
    expect(msg).toMatch(/repo.*stars/);
    expect(msg).toContain('name, isFork, commits');
  });

  it('JSON without items', () => {
    expect(setupError('{"parameters": {}}', 'params.json')).toContain('params.json');
    expect(setupError('{"parameters": {}}', 'params.json')).toContain('"items"');
    expect(setupError('{"items": {"name": "a/b"}}', 'obj.json')).toContain('obj.json');
  });

  it('JSON whose items are not repositories', () => {
    const msg = setupError('{"items": [{"repo": "a/b"}, {"repo": "c/d"}]}', 'wrong.json');
    expect(msg).toContain('wrong.json');
    expect(msg).toContain('"name"');
  });

  it('invalid JSON', () => {
    const msg = setupError('{"items": [', 'truncated.json');
    expect(msg).toContain('truncated.json');
    expect(msg).toContain('invalid JSON');
  });

  it('binary junk', () => {
    const junk = Buffer.alloc(512);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 73 + 41) % 256;
    expect(setupError(junk, 'junk.bin')).toContain('junk.bin');
    expect(setupError(Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x0a, 0x03]), 'zeros.bin')).toContain('zeros.bin');
  });

  it('a corrupt .gz', () => {
    const gz = gzipSync(Buffer.from(toCsv([seart()])));
    const msg = setupError(gz.subarray(0, 20), 'results.csv.gz');
    expect(msg).toContain('results.csv.gz');
    expect(msg).toContain('gzip');
    expect(setupError(Buffer.from([0x1f, 0x8b, 9, 9, 9, 9]), 'bad.gz')).toContain('bad.gz');
  });

  it('a gzip of something that is not an export', () => {
    expect(setupError(gzipSync(Buffer.from('just some text\n')), 'text.gz')).toContain('text.gz');
  });

  it('an empty file', () => {
    const msg = setupError(Buffer.alloc(0), 'empty.csv');
    expect(msg).toContain('empty.csv');
    expect(msg).toContain('empty');
    expect(setupError(gzipSync(Buffer.alloc(0)), 'empty.csv.gz')).toContain('empty.csv.gz');
  });
});

describe('readSeartExport and the seart_export source', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envforge-search-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file, gzip or not', async () => {
    const records = [seart({ name: 'a/one' }), seart({ name: 'b/two', commits: 3 })];
    await writeFile(join(dir, 'r.json.gz'), gzipSync(toJson(records)));
    await writeFile(join(dir, 'r.csv'), toCsv(records));
    const fromGz = await readSeartExport(join(dir, 'r.json.gz'));
    const fromCsv = await readSeartExport(join(dir, 'r.csv'));
    expect(fromGz.map((r) => r.name)).toEqual(['a/one', 'b/two']);
    expect(await runAll(fromGz)).toEqual(await runAll(fromCsv));
  });

  it('the source reads the file named by search.export', async () => {
    const file = join(dir, 'source.csv');
    await writeFile(file, toCsv([seart({ name: 'a/one' }), seart({ name: 'b/two' })]));
    const read = await seartExportSource.read(context('', file));
    expect(Array.from(read as Iterable<RawRecord>).map((r) => r.name)).toEqual(['a/one', 'b/two']);
  });

  it('a missing file is a SetupError naming the file', async () => {
    const file = join(dir, 'missing.csv');
    const err = await readSeartExport(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('ENOENT');
  });
});

describe('criteria and licenses directly', () => {
  const settings = defaultCtx.config.config.search as SearchSettings;
  const record = (overrides: Seart = {}): RepoRecord => {
    const parsed = parseRecord({ ...seart(overrides), __row: 1 });
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    return parsed.record;
  };

  it('firstFailure: undefined when everything passes, else the first failing rule', () => {
    expect(firstFailure(record(), settings)).toBeUndefined();
    expect(firstFailure(record({ commits: 999, stargazers: 0 }), settings)).toEqual({
      reason: 'too_few_commits',
      text: '999 commits, fewer than the minimum 1000',
    });
    expect(firstFailure(record({ isArchived: true }), { ...settings, exclude_archived: false })).toBeUndefined();
    expect(firstFailure(record({ stargazers: 0 }), { ...settings, min_stars: 0 })).toBeUndefined();
  });

  it('toSpdx maps license names and ids', () => {
    expect(toSpdx('MIT License')).toBe('MIT');
    expect(toSpdx('  mit license ')).toBe('MIT');
    expect(toSpdx('Apache License 2.0')).toBe('Apache-2.0');
    expect(toSpdx('BSD 3-Clause "New" or "Revised" License')).toBe('BSD-3-Clause');
    expect(toSpdx('GNU General Public License v3.0')).toBe('GPL-3.0');
    expect(toSpdx('Other')).toBe('NOASSERTION');
    expect(toSpdx('apache-2.0')).toBe('Apache-2.0');
    expect(toSpdx('MIT')).toBe('MIT');
    expect(toSpdx('Some Custom License')).toBeUndefined();
  });
});
