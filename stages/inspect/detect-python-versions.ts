import { asArray, asString, asTable, dig, type Manifests } from './parse-manifests.js';
import type { Findings } from './safe-files.js';

/**
 * Python version requirements declared in the root, in this order (python_version_spec is the
 * first): [project].requires-python, Poetry's `python` dependency, setup.cfg python_requires,
 * a literal python_requires in setup.py, the `python` pin of a conda environment file,
 * .python-version. Declared package constraints come before the developer's local pin because
 * they are what an installer enforces.
 */

export interface PythonVersionFacts {
  python_version_spec: string | null;
  python_version_specs: string[];
  python_version_sources: string[];
}

export async function detectPythonVersions(rootNames: readonly string[], manifests: Manifests, findings: Findings): Promise<PythonVersionFacts> {
  const names = new Set(rootNames);
  const specs: string[] = [];
  const sources: string[] = [];
  const record = (spec: string | undefined, source: string): void => {
    if (spec) {
      specs.push(spec);
      sources.push(source);
    }
  };

  if (names.has('pyproject.toml')) {
    const pyproject = await manifests.toml('pyproject.toml');
    if (pyproject.state === 'ok') {
      record(asString(dig(pyproject.value, 'project', 'requires-python')), 'pyproject.toml:project.requires-python');
      const poetryPython = dig(pyproject.value, 'tool', 'poetry', 'dependencies', 'python');
      // Poetry also accepts the long form { version = "^3.9" }.
      record(asString(poetryPython) ?? asString(dig(poetryPython, 'version')), 'pyproject.toml:tool.poetry.dependencies.python');
    }
  }

  if (names.has('setup.cfg')) {
    const cfg = await manifests.ini('setup.cfg');
    if (cfg.state === 'ok') record(cfg.value.get('options')?.get('python_requires') || undefined, 'setup.cfg:options.python_requires');
  }

  if (names.has('setup.py')) {
    const setup = await manifests.text('setup.py');
    if (setup.state === 'ok') record(setupPyPythonRequires(setup.value, findings), 'setup.py:python_requires');
  }

  for (const name of ['environment.yml', 'environment.yaml']) {
    if (!names.has(name)) continue;
    const env = await manifests.yaml(name);
    if (env.state === 'ok') record(condaPythonPin(env.value), `${name}:dependencies.python`);
  }

  if (names.has('.python-version')) {
    const pin = await manifests.text('.python-version');
    if (pin.state === 'ok') record(firstMeaningfulLine(pin.value), '.python-version');
  }

  return { python_version_spec: specs[0] ?? null, python_version_specs: specs, python_version_sources: sources };
}

/**
 * The python_requires keyword of setup(), only when it is a string literal: setup.py is a
 * program and is never executed here, so a computed value is reported and skipped.
 */
export function setupPyPythonRequires(source: string, findings: Findings): string | undefined {
  const keyword = /\bpython_requires\s*=\s*/.exec(source);
  if (!keyword) return undefined;
  const rest = source.slice(keyword.index + keyword[0].length);
  const literal = /^[rRuU]?("""|'''|"|')(.*?)\1/s.exec(rest);
  if (!literal) {
    findings.add('setup.py', 'python_requires is not a string literal; not evaluated', false);
    return undefined;
  }
  return literal[2]!.trim() || undefined;
}

/** `python=3.10`, `python>=3.9` or `python 3.8.*` among a conda environment's dependencies. */
function condaPythonPin(env: unknown): string | undefined {
  for (const dep of asArray(dig(env, 'dependencies'))) {
    if (asTable(dep)) continue; // the nested `pip:` list
    const text = asString(dep);
    const match = text ? /^python(?![\w.-])\s*(.*)$/.exec(text) : null;
    if (match && match[1]) return match[1].trim();
  }
  return undefined;
}

export function firstMeaningfulLine(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.replace(/#.*$/, '').trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}
