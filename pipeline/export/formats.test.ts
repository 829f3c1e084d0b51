import { describe, expect, it } from 'vitest';
import { encondaFiles, encondaGold, encondaLevel, type ERROR_TYPES } from './enconda.js';
import { findLeak, hostPaths } from './leak-check.js';
import { SETUPBENCH_FIELDS, setupbenchEntry, setupbenchRecord } from './setupbench.js';

const error = (t: (typeof ERROR_TYPES)[number]) => ({ error_type: t, error_description: `broken step ${t}`, correction_candidates: ['a', 'b', 'c', 'd'], golden_answer: 'c' });

describe('EnConda-Bench layout (for when its stages land)', () => {
  it('writes README.<ext> + README.json per instance under error_gen_<owner>_<repo>, and one JSONL', () => {
    const files = encondaFiles([
      { repository: 'psf/requests', instance: 'psf_requests_error_readme_2', readme_ext: 'md', readme_text: '# requests\n', errors: [error('E1'), error('E6')] },
      { repository: 'psf/requests', instance: 'psf_requests_error_readme_1_only_E2', readme_ext: 'rst', readme_text: 'requests\n', errors: [error('E2')] },
    ]);
    expect(files.map((f) => f.path)).toEqual([
      'enconda/error_gen_psf_requests/psf_requests_error_readme_1_only_E2/README.rst',
      'enconda/error_gen_psf_requests/psf_requests_error_readme_1_only_E2/README.json',
      'enconda/error_gen_psf_requests/psf_requests_error_readme_2/README.md',
      'enconda/error_gen_psf_requests/psf_requests_error_readme_2/README.json',
      'enconda/instances.jsonl',
    ]);
    const gold = files[3]!.kind === 'json' ? files[3]!.records[0] : undefined;
    expect(gold).toEqual({ readme: 'psf_requests_error_readme_2', repo_name: 'psf_requests', level: 'level2', errors: [error('E1'), error('E6')] });
    expect(encondaGold.safeParse(gold).success).toBe(true);
  });

  it('checks the gold JSON as released: four candidates, the answer among them, the six error types', () => {
    expect(encondaLevel(0)).toBe('level0');
    expect(encondaLevel(14)).toBe('level10');
    const bad = (e: object) => encondaGold.safeParse({ readme: 'r', repo_name: 'o_r', level: 'level1', errors: [{ ...error('E1'), ...e }] }).success;
    expect(bad({})).toBe(true);
    expect(bad({ correction_candidates: ['a', 'b', 'c'] })).toBe(false);
    expect(bad({ golden_answer: 'z' })).toBe(false);
    expect(bad({ error_type: 'E3' })).toBe(false);
  });
});

describe('SetupBench dependency_resolution entries (for when its stages land)', () => {
  it('has exactly the published fields in order, with the derived id, statement and URL', () => {
    const e = setupbenchEntry({
      ecosystem: 'npm-eresolve', repo: 'acme/web', issue_number: 12, issue_url: 'https://github.com/acme/web/issues/12', comment_id: 345,
      snippet: 'npm ERR! code ERESOLVE', base_commit: 'abcdef0123456789abcdef0123456789abcdef01', success_command: 'npm ci --ignore-scripts',
      base_image: 'node:16', image_tag: 'envforge/deps:web-abcde',
    });
    expect(Object.keys(e)).toEqual([...SETUPBENCH_FIELDS]);
    expect(e).toMatchObject({
      instance_id: 'deps-web-abcde',
      task_type: 'dependency_resolution',
      repo_url: 'https://github.com/acme/web',
      problem_statement: 'There is a dependency conflict in this project when running npm ci --ignore-scripts. Please resolve the dependency conflict so that the command can run successfully.',
    });
    expect(setupbenchRecord.safeParse(e).success).toBe(true);
    expect(setupbenchRecord.safeParse({ ...e, extra: 1 }).success).toBe(false);
  });
});

describe('leak check', () => {
  const paths = hostPaths([
    { label: 'the data folder', path: '/srv/alice/envforge/data' },
    { label: 'the home directory', path: '/root' },
    { label: 'the temporary directory', path: '/tmp' },
  ]);

  it('ignores one-segment folders every container has, and finds the machine\'s own', () => {
    expect(paths.map((p) => p.path)).toEqual(['/srv/alice/envforge/data']);
    expect(findLeak('Creating virtualenv in /root/.cache/pypoetry/virtualenvs', paths)).toBeUndefined();
    expect(findLeak('wrote /tmp/x', paths)).toBeUndefined();
    expect(findLeak('cannot stat /srv/alice/envforge/data/cache/clones/x', paths)).toBe('a host path (the data folder)');
  });

  it('finds tokens by shape and credentials in URLs', () => {
    expect(findLeak(`token github_pat_${'A1'.repeat(15)}`, [])).toBe('a GitHub token');
    expect(findLeak(`OPENAI_API_KEY=sk-proj-${'x'.repeat(30)}`, [])).toBe('an API key (sk-...)');
    expect(findLeak('https://bot:s3cr3t@github.com/acme/web.git', [])).toBe('a registered secret or URL credentials');
    expect(findLeak('https://github.com/acme/web.git', [])).toBeUndefined();
  });
});
