import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_CONFLICT_ECOSYSTEMS, REFERENCE_REPRODUCE_ECOSYSTEMS } from '../../pipeline/config/conflict-sections.js';
import { compileEcosystems, matchingLines } from './match-text.js';

/** The ecosystems' regexes against REAL tool outputs (test/fixtures/conflicts/README.md says how each was captured). */
const fx = (f: string) => readFileSync(new URL(`../../test/fixtures/conflicts/${f}`, import.meta.url), 'utf8');
const eco = Object.fromEntries(compileEcosystems({ ecosystems: REFERENCE_CONFLICT_ECOSYSTEMS }).map((e) => [e.name, e.regex]));
const matching = (text: string) => Object.entries(eco).filter(([, re]) => re.test(text)).map(([n]) => n).sort();
const repro = (name: keyof typeof REFERENCE_REPRODUCE_ECOSYSTEMS, key: 'error_regex' | 'unreachable_regex') =>
  new RegExp((REFERENCE_REPRODUCE_ECOSYSTEMS[name] as unknown as Record<string, string | undefined>)[key] ?? REFERENCE_CONFLICT_ECOSYSTEMS[name].regex, 'i');

describe('conflict regexes on real outputs', () => {
  it('npm 9 ERESOLVE (npm ci and npm install) is npm-eresolve, snippet = the matching line', () => {
    for (const f of ['npm9-ci-eresolve.txt', 'npm9-install-eresolve.txt']) {
      expect(matching(fx(f))).toEqual(['npm-eresolve']);
      expect(matchingLines(fx(f), eco['npm-eresolve']!, 40)).toEqual({ snippet: 'npm ERR! code ERESOLVE', lines: 1 });
    }
  });

  it("npm 6's `peer dep missing` is npm-peer-dep; npm 7+ never prints it, so its reproduction also accepts ERESOLVE", () => {
    expect(matching(fx('npm6-ls-peer-dep.txt'))).toEqual(['npm-peer-dep']);
    expect(matchingLines(fx('npm6-ls-peer-dep.txt'), eco['npm-peer-dep']!, 40)?.snippet).toBe('npm ERR! peer dep missing: react@^18.2.0, required by react-dom@18.2.0');
    expect(eco['npm-peer-dep']!.test(fx('npm9-ci-eresolve.txt'))).toBe(false);
    expect(repro('npm-peer-dep', 'error_regex').test(fx('npm9-ci-eresolve.txt'))).toBe(true);
    // npm 6 only warned at install time: no ERR! line there.
    expect(matching(fx('npm6-install-peer-warn.txt'))).toEqual([]);
  });

  it('an unreachable npm registry is not a conflict, and is recognised as unreachable', () => {
    const out = fx('npm9-offline.txt');
    expect(out).toContain('npm WARN ERESOLVE overriding peer dependency');
    expect(matching(out)).toEqual([]);
    expect(repro('npm-eresolve', 'unreachable_regex').test(out)).toBe(true);
    expect(repro('npm-eresolve', 'unreachable_regex').test(fx('npm9-ci-eresolve.txt'))).toBe(false);
  });

  it("pip's ResolutionImpossible matches pip-conflict (and the reference's poetry-conflict regex)", () => {
    const out = fx('pip-resolution-impossible.txt');
    expect(matching(out)).toEqual(['pip-conflict', 'poetry-conflict']);
    expect(matchingLines(out, eco['pip-conflict']!, 40)?.snippet).toMatch(/^ERROR: ResolutionImpossible: for help visit/);
    expect(repro('pip-conflict', 'unreachable_regex').test(out)).toBe(false);
    expect(repro('pip-conflict', 'unreachable_regex').test(fx('pip-offline.txt'))).toBe(true);
    expect(matching(fx('pip-offline.txt'))).toEqual([]);
  });

  it("Poetry's SolverProblemError does not say ResolutionImpossible: reproduction uses Poetry's own words", () => {
    const out = fx('poetry-solver-problem.txt');
    expect(out).toContain('SolverProblemError');
    expect(eco['poetry-conflict']!.test(out)).toBe(false);
    expect(repro('poetry-conflict', 'error_regex').test(out)).toBe(true);
  });

  it("Bundler's message is bundler-compat; an unreachable rubygems.org is recognised", () => {
    const out = fx('bundler-could-not-find-compatible.txt');
    expect(matching(out)).toEqual(['bundler-compat']);
    expect(matchingLines(out, eco['bundler-compat']!, 40)?.snippet).toBe('Bundler could not find compatible versions for gem "tinyproto":');
    expect(repro('bundler-compat', 'unreachable_regex').test(fx('bundler-offline.txt'))).toBe(true);
    expect(repro('bundler-compat', 'unreachable_regex').test(out)).toBe(false);
  });

  it('matches case-insensitively, keeps every matching line up to the cap, and spans lines for a multi-line regex', () => {
    expect(matchingLines('a\nNPM err! CODE eresolve\nb', eco['npm-eresolve']!, 40)?.snippet).toBe('NPM err! CODE eresolve');
    const many = Array.from({ length: 5 }, (_, i) => `npm ERR! code ERESOLVE ${i}`).join('\r\n');
    expect(matchingLines(many, eco['npm-eresolve']!, 2)).toEqual({ snippet: 'npm ERR! code ERESOLVE 0\nnpm ERR! code ERESOLVE 1', lines: 5 });
    expect(matchingLines('x\nfirst line\nsecond\ny', /first line\nsecond/i, 40)).toEqual({ snippet: 'first line\nsecond', lines: 2 });
    expect(matchingLines('nothing here', eco['npm-eresolve']!, 40)).toBeUndefined();
  });
});
