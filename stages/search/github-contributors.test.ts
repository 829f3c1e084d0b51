import { describe, expect, it } from 'vitest';
import { lastPage } from './github-contributors.js';

describe('contributor count from the Link header', () => {
  it('reads the page of rel="last"', () => {
    const link =
      '<https://api.github.com/repositories/1/contributors?per_page=1&anon=true&page=2>; rel="next", ' +
      '<https://api.github.com/repositories/1/contributors?per_page=1&anon=true&page=734>; rel="last"';
    expect(lastPage(link)).toBe(734);
  });

  it('no Link or no rel="last": undefined (the page itself is the whole list)', () => {
    expect(lastPage(undefined)).toBeUndefined();
    expect(lastPage('<https://api.github.com/x?page=1>; rel="prev", <https://api.github.com/x?page=1>; rel="first"')).toBeUndefined();
  });
});
