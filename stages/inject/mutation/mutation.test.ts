import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TYPES, type ErrorType } from '../../../pipeline/config/schema.js';
import { extractDoc } from '../../readme/extract.js';
import { checkInstance } from '../checks.js';
import { LineDoc, applyAnswer, changedChars, changedLines, restoresOriginal } from '../edits.js';
import { mutateReadme, type MutationInput } from './injector.js';
import { misspellings, tokenize } from './tokens.js';

/** Real-looking READMEs in the styles the benchmark meets: pip, Poetry, conda, Maven, Gradle (and pip in rst). */
const FIXTURES = ['pip.md', 'poetry.md', 'conda.md', 'maven.md', 'gradle.md', 'pip.rst'];
const BUDGET = { max_lines_per_edit: 2, max_chars_per_edit: 200 };

function input(name: string): MutationInput {
  const text = readFileSync(resolve('test/fixtures/readmes', name), 'utf8');
  return { repository: `acme/${name.replace('.', '-')}`, doc_path: name, doc_text: text, steps: extractDoc(name, text).steps };
}

const one = (name: string, type: ErrorType, seed = 1, instance = 0) => mutateReadme(input(name), { seed, instance, errors: 1, types: [type] });

describe('mutation operators on every fixture and every type', () => {
  for (const name of FIXTURES) {
    for (const type of ERROR_TYPES) {
      it(`${name} ${type}: minimal, typed, reversible with the golden answer, 4 candidates`, () => {
        const inp = input(name);
        const r = one(name, type);
        expect(r, `${type} applies to ${name}`).toBeDefined();
        const e = r!.errors[0]!;
        expect(r!.errors).toHaveLength(1);
        expect(e.error_type).toBe(type);
        expect(e.origin).toMatch(/^mutation:/);
        // Minimal: one line (two for a swap), a few characters, nothing else in the README changes.
        const span = e.edit.line_end - e.edit.line_start + 1;
        expect(span).toBe(type === 'E6' ? 2 : 1);
        expect(changedLines(inp.doc_text, r!.injected)).toBe(2); // a line changed (or one of two swapped): one out, one in
        if (type !== 'E6') expect(changedChars(e.edit.original, e.edit.injected)).toBeLessThanOrEqual(20);
        const before = new LineDoc(inp.doc_text);
        const after = new LineDoc(r!.injected);
        expect(after.lines.length).toBe(before.lines.length);
        expect(before.region(e.edit.line_start, e.edit.line_end)).toBe(e.edit.original);
        expect(after.region(e.edit.line_start, e.edit.line_end)).toBe(e.edit.injected);
        // The fragments are the changed commands; the edit is reversible with the golden answer.
        expect(e.golden_answer).toBe(e.edit.original_text);
        expect(e.edit.injected_text).not.toBe(e.edit.original_text);
        expect(restoresOriginal(e.edit, e.golden_answer)).toBe(true);
        const restored = [...after.lines];
        restored.splice(e.edit.line_start - 1, span, ...applyAnswer(e.edit, e.golden_answer).find((x) => x === e.edit.original)!.split('\n'));
        expect(after.text(restored)).toBe(inp.doc_text);
        // 4 distinct candidates, the golden answer among them; no other candidate restores the step.
        expect(e.correction_candidates).toHaveLength(4);
        expect(new Set(e.correction_candidates).size).toBe(4);
        expect(e.correction_candidates).toContain(e.golden_answer);
        expect(e.correction_candidates).not.toContain(e.edit.injected_text);
        for (const c of e.correction_candidates.filter((x) => x !== e.golden_answer)) expect(restoresOriginal(e.edit, c)).toBe(false);
        expect(e.error_description.length).toBeGreaterThan(20);
        expect(checkInstance(inp.doc_text, r!.injected, r!.errors, BUDGET)).toEqual([]);
      });
    }
  }
});

describe('what the operators do', () => {
  const edit = (name: string, type: ErrorType, seed = 1) => {
    const e = one(name, type, seed)!.errors[0]!;
    return [e.edit.line_start, e.edit.original_text, e.edit.injected_text];
  };

  it('E1: an install forced offline, or a misspelled package', () => {
    expect(edit('maven.md', 'E1')).toEqual([15, 'mvn clean install -DskipTests', 'mvn -o clean install -DskipTests']);
    expect(edit('gradle.md', 'E1')).toEqual([20, './gradlew installDist', './gradlew --offline installDist']);
    expect(edit('poetry.md', 'E1')).toEqual([12, 'pipx install poetry==1.8.3', 'pipx install poetyr==1.8.3']);
    expect(edit('conda.md', 'E1')).toEqual([21, 'pip install -r requirements-dev.txt', 'pip install --no-index -r requirements-dev.txt']);
  });

  it('E2: a misspelled subcommand, goal or task, or a flag the tool rejects', () => {
    expect(edit('pip.md', 'E2')).toEqual([27, 'pip install -r requirements.txt', 'pip istall -r requirements.txt']);
    expect(edit('conda.md', 'E2')).toEqual([11, 'conda activate cellmap', 'conda activtae cellmap']);
    expect(edit('pip.md', 'E2', 3)).toEqual([28, 'pip install -e .', 'pip install --editible .']);
  });

  it('E4: a wrong file or directory', () => {
    expect(edit('conda.md', 'E4')).toEqual([30, 'python scripts/download_samples.py --dest $CELLMAP_DATA', 'python script/download_samples.py --dest $CELLMAP_DATA']);
    expect(edit('pip.md', 'E4')).toEqual([20, 'source .venv/bin/activate', 'source venv/bin/activate']);
    expect(edit('maven.md', 'E4')).toEqual([14, 'cd order-service', 'cd Order-service']);
  });

  it('E6: two dependent steps swapped (activate before create, run before chmod)', () => {
    expect(edit('pip.md', 'E6')).toEqual([19, 'python3.10 -m venv .venv\nsource .venv/bin/activate', 'source .venv/bin/activate\npython3.10 -m venv .venv']);
    expect(edit('gradle.md', 'E6')).toEqual([13, 'chmod +x gradlew\n./gradlew build -x test', './gradlew build -x test\nchmod +x gradlew']);
    // rst: the indented lines swap whole; the golden answer is given without the indentation.
    const rst = one('pip.rst', 'E6')!.errors[0]!;
    expect(rst.edit.original).toBe('   python -m venv venv\n   . venv/bin/activate');
    expect(rst.edit.injected).toBe('   . venv/bin/activate\n   python -m venv venv');
    expect(rst.golden_answer).toBe('python -m venv venv\n. venv/bin/activate');
  });

  it('E7: an interpreter, JDK or compiler release that cannot work', () => {
    expect(edit('conda.md', 'E7')).toEqual([18, 'conda create -n cellmap python=3.9', 'conda create -n cellmap python=2.7']);
    expect(edit('gradle.md', 'E7')).toEqual([10, 'sdk install java 21.0.2-tem', 'sdk install java 8.0.402-tem']);
    expect(edit('pip.md', 'E7')).toEqual([19, 'python3.10 -m venv .venv', 'python2.7 -m venv .venv']);
  });

  it('E8: an SSH clone URL, or a misspelled environment variable', () => {
    expect(edit('pip.md', 'E8')).toEqual([17, 'git clone https://github.com/acme/weatherkit.git', 'git clone git@github.com:acme/weatherkit.git']);
    expect(edit('gradle.md', 'E8')).toEqual([21, 'export TILEMAKER_HOME=build/install/tilemaker', 'export TLEMAKER_HOME=build/install/tilemaker']);
  });
});

describe('seeds and instances', () => {
  it('the same seed gives the same output; another seed or instance can differ', () => {
    for (const name of FIXTURES) {
      const o = { seed: 7, instance: 0, errors: 2, types: ERROR_TYPES };
      expect(mutateReadme(input(name), o)).toEqual(mutateReadme(input(name), o));
    }
    const outputs = new Set([1, 2, 3, 4, 5].map((seed) => mutateReadme(input('pip.md'), { seed, instance: 0, errors: 2, types: ERROR_TYPES })!.injected));
    expect(outputs.size).toBeGreaterThan(1);
    const a = mutateReadme(input('conda.md'), { seed: 1, instance: 0, errors: 2, types: ERROR_TYPES });
    const b = mutateReadme(input('conda.md'), { seed: 1, instance: 1, errors: 2, types: ERROR_TYPES });
    expect(a!.injected).not.toBe(b!.injected);
  });

  it('several errors per README: distinct types, separate lines, every check passes', () => {
    for (const name of FIXTURES) {
      for (const instance of [0, 1, 2]) {
        const r = mutateReadme(input(name), { seed: 3, instance, errors: 3, types: ERROR_TYPES })!;
        expect(r.errors).toHaveLength(3);
        expect(new Set(r.errors.map((e) => e.error_type)).size).toBe(3);
        const lines = r.errors.flatMap((e) => Array.from({ length: e.edit.line_end - e.edit.line_start + 1 }, (_, k) => e.edit.line_start + k));
        expect(new Set(lines).size).toBe(lines.length);
        expect(checkInstance(input(name).doc_text, r.injected, r.errors, BUDGET)).toEqual([]);
      }
    }
  });

  it('only the configured types are used, and nothing applies to a README without steps', () => {
    const r = mutateReadme(input('maven.md'), { seed: 1, instance: 0, errors: 2, types: ['E4', 'E8'] })!;
    expect(r.errors.map((e) => e.error_type).sort()).toEqual(['E4', 'E8']);
    expect(mutateReadme({ repository: 'a/b', doc_path: 'README.md', doc_text: '# x\n\nText only.\n', steps: [] }, { seed: 1, instance: 0, errors: 2, types: ERROR_TYPES })).toBeUndefined();
  });
});

describe('tokens', () => {
  it('splits words with quotes and offsets; misspells deterministically', () => {
    expect(tokenize(`pip install "numpy>=1.2" -r req.txt`).map((t) => [t.text, t.start])).toEqual([
      ['pip', 0],
      ['install', 4],
      ['"numpy>=1.2"', 12],
      ['-r', 25],
      ['req.txt', 28],
    ]);
    expect(misspellings('run')).toEqual(['rnu', 'ruun', 'runn']);
    expect(misspellings('numpy')).toContain('nmupy');
    expect(misspellings('numpy')).not.toContain('numpy');
  });
});
