import { afterEach, describe, expect, it } from 'vitest';
import { githubSection } from '../config/schema.js';
import { clearSecrets, redact } from '../log/secrets.js';
import { resolveGitHub } from './settings.js';

afterEach(() => clearSecrets());

describe('GitHub settings', () => {
  const defaults = githubSection.parse({});

  it('ENVFORGE_GITHUB_API_URL wins over github.api_url, which wins over api.github.com', () => {
    expect(resolveGitHub(defaults, {}).apiUrl).toBe('https://api.github.com');
    expect(resolveGitHub({ ...defaults, api_url: 'https://ghe.example/api/v3/' }, {}).apiUrl).toBe('https://ghe.example/api/v3');
    expect(resolveGitHub({ ...defaults, api_url: 'https://ghe.example/api/v3' }, { ENVFORGE_GITHUB_API_URL: 'http://127.0.0.1:9' }).apiUrl).toBe('http://127.0.0.1:9');
    expect(() => resolveGitHub({ ...defaults, api_url: 'ftp://x' }, {})).toThrow(/github.api_url/);
  });

  it('tokens: config first (comma-separated, plus token), else the environment; each one is a registered secret', () => {
    const a = 'ghp_first0000000000000000000000000000';
    const b = 'ghp_second000000000000000000000000000';
    expect(resolveGitHub({ ...defaults, tokens: ` ${a} , ${b},`, token: a }, {}).tokens).toEqual([a, b]);
    expect(resolveGitHub(defaults, { GITHUB_TOKENS: b, GITHUB_TOKEN: a }).tokens).toEqual([b, a]);
    expect(resolveGitHub(defaults, {}).tokens).toEqual([]);
    // Registered one by one: a single token in a message is masked, not only the joined list.
    expect(redact(`failed with ${b}`)).toBe('failed with ***');
    expect(redact(`failed with ${a}`)).toBe('failed with ***');
  });
});

describe('the [search] section for source = "github"', () => {
  it('needs no export; source = "seart" still does', async () => {
    const { parseConfig } = await import('../config/load.js');
    const gh = parseConfig('dataset = "x"\n[search]\nsource = "github"\nlicenses = ["MIT"]\ncreated_after = "2024-01-01"\n', 'g.toml', {});
    expect(gh.config.search).toMatchObject({ source: 'github', created_after: '2024-01-01' });
    expect(gh.config.search?.export).toBeUndefined();
    expect(gh.config.github.page_size).toBe(100);
    expect(() => parseConfig('dataset = "x"\n[search]\nlicenses = ["MIT"]\n', 's.toml', {})).toThrow('s.toml: search.export: missing required key (expected string)');
    expect(() => parseConfig('dataset = "x"\n[search]\nsource = "github"\nlicenses = ["MIT"]\ncreated_after = "2024-05-01"\ncreated_before = "2024-01-01"\n', 'g.toml', {})).toThrow(/search.created_before: before created_after/);
    expect(() => parseConfig('dataset = "x"\n[github]\npage_size = 101\n', 'g.toml', {})).toThrow(/github.page_size/);
  });
});
