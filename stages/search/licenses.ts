/**
 * SEART-GHS (like GitHub's REST API) names licenses by their full name; the config's allow-list
 * speaks SPDX. This maps the names GitHub's license picker can produce to SPDX ids.
 */
const BY_NAME: Record<string, string> = {
  'mit license': 'MIT',
  'mit no attribution': 'MIT-0',
  'apache license 2.0': 'Apache-2.0',
  'bsd 2-clause "simplified" license': 'BSD-2-Clause',
  'bsd 3-clause "new" or "revised" license': 'BSD-3-Clause',
  'bsd 3-clause clear license': 'BSD-3-Clause-Clear',
  'bsd 4-clause "original" or "old" license': 'BSD-4-Clause',
  'bsd zero clause license': '0BSD',
  'isc license': 'ISC',
  'the unlicense': 'Unlicense',
  'boost software license 1.0': 'BSL-1.0',
  'zlib license': 'Zlib',
  'creative commons zero v1.0 universal': 'CC0-1.0',
  'universal permissive license v1.0': 'UPL-1.0',
  'academic free license v3.0': 'AFL-3.0',
  'python software foundation license 2.0': 'PSF-2.0',
  'do what the f*ck you want to public license': 'WTFPL',
  'mozilla public license 2.0': 'MPL-2.0',
  'eclipse public license 1.0': 'EPL-1.0',
  'eclipse public license 2.0': 'EPL-2.0',
  'gnu general public license v2.0': 'GPL-2.0',
  'gnu general public license v3.0': 'GPL-3.0',
  'gnu lesser general public license v2.1': 'LGPL-2.1',
  'gnu lesser general public license v3.0': 'LGPL-3.0',
  'gnu affero general public license v3.0': 'AGPL-3.0',
  'european union public license 1.2': 'EUPL-1.2',
  'other': 'NOASSERTION',
};

const SPDX = new Map(Object.values(BY_NAME).map((id) => [id.toLowerCase(), id]));

/** SPDX id for a license name or id; undefined when unknown (kept as its name by callers). */
export function toSpdx(license: string): string | undefined {
  const k = license.trim().toLowerCase();
  return BY_NAME[k] ?? SPDX.get(k);
}
