import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/spec';

/**
 * The user's path: the pages a user reads to install, run, change and operate the service, in the README's order.
 * docs/contract.md and docs/extending.md are references these pages link to; docs/maintainers/ is the
 * maintainers'. The path must read in under 10,000 words: a fact that only a maintainer needs
 * goes to docs/maintainers/, not here.
 */
const USER_PATH = ['README.md', 'docs/changing-the-contract.md', 'docs/settings.md', 'docs/operating.md'];
const MAX_WORDS = 10_000;

/** Words as `wc -w` counts them: runs of characters between whitespace. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');

describe("the user's path through the docs", () => {
  it(`when its pages are read end to end, then they hold fewer than ${MAX_WORDS} words`, () => {
    const counts = Object.fromEntries(USER_PATH.map((file) => [file, wordCount(read(file))]));
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (total >= MAX_WORDS) throw new Error(`the user's path holds ${total} words (${JSON.stringify(counts)}): move what only maintainers need to docs/maintainers/`);
    expect(total).toBeLessThan(MAX_WORDS);
    for (const count of Object.values(counts)) expect(count).toBeGreaterThan(500); // a page emptied is no fix
  });

  it('when the README is read, then it links every other page of the path, in the path\'s order', () => {
    const readme = read('README.md');
    const at = USER_PATH.slice(1).map((file) => readme.indexOf(`](${file})`));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('when words are counted, then they are counted as wc -w counts them', () => {
    expect(wordCount('  one two\nthree\t`four` five-six  ')).toBe(5);
    expect(wordCount('')).toBe(0);
  });
});
