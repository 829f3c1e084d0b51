import type { EntryBudget, RepoFiles } from './safe-files.js';

/**
 * Setup documents: the README (the input of EnConda-Bench-style README work), INSTALL files,
 * install / setup / getting-started pages under docs/, doc/ and docs/source/, and CONTRIBUTING
 * guides (where development setup usually lives).
 * Paths only; the content is read by later stages.
 */

const DOC_EXT = String.raw`(?:\.(?:md|markdown|rst|adoc|asciidoc|org|txt))?`;
const README = new RegExp(`^readme${DOC_EXT}$`, 'i');
const INSTALL = new RegExp(`^install(?:ation|ing)?${DOC_EXT}$`, 'i');
const INSTALL_PAGE = new RegExp(String.raw`^(?:install|installation|installing|setup|getting[-_]started)${DOC_EXT}$`, 'i');
const CONTRIBUTING = new RegExp(`^contributing${DOC_EXT}$`, 'i');

/** When several READMEs exist, the richest markup wins: it is the one GitHub renders first. */
const README_PREFERENCE = ['.md', '.markdown', '.rst', '.adoc', '.asciidoc', '.org', '.txt', ''];

/** Directories whose install pages count; GitHub also reads CONTRIBUTING from .github/ and docs/. */
const DOC_DIRS = ['docs', 'doc', 'docs/source'];
const CONTRIBUTING_DIRS = ['.github', 'docs'];

export interface DocFacts {
  readme_path: string | null;
  setup_docs: string[];
}

export async function findDocs(rootNames: readonly string[], files: RepoFiles, maxEntries: number): Promise<DocFacts> {
  const budget: EntryBudget = { remaining: maxEntries, exhausted: false };
  const safe = async (paths: string[]): Promise<string[]> => {
    const kept: string[] = [];
    for (const p of paths) if (await files.present(p)) kept.push(p);
    return kept;
  };
  const listing = async (dir: string): Promise<string[]> =>
    (await files.listDir(dir, budget)).filter((e) => e.type === 'file' || e.type === 'symlink').map((e) => `${dir}/${e.name}`);

  const readmes = await safe(rootNames.filter((n) => README.test(n)));
  readmes.sort((a, b) => readmeRank(a) - readmeRank(b) || (a < b ? -1 : 1));
  const readme = readmes[0] ?? null;

  const install = await safe(rootNames.filter((n) => INSTALL.test(n)).sort());
  const pages: string[] = [];
  for (const dir of DOC_DIRS) {
    pages.push(...(await safe((await listing(dir)).filter((p) => INSTALL_PAGE.test(basename(p))))));
  }
  const contributing = await safe(rootNames.filter((n) => CONTRIBUTING.test(n)).sort());
  for (const dir of CONTRIBUTING_DIRS) {
    contributing.push(...(await safe((await listing(dir)).filter((p) => CONTRIBUTING.test(basename(p))))));
  }

  return { readme_path: readme, setup_docs: [...(readme ? [readme] : []), ...install, ...pages, ...contributing] };
}

function readmeRank(name: string): number {
  const dot = name.indexOf('.');
  const ext = dot === -1 ? '' : name.slice(dot).toLowerCase();
  const rank = README_PREFERENCE.indexOf(ext);
  return rank === -1 ? README_PREFERENCE.length : rank;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
