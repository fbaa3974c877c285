import { memoizeValidatorPathToRegexp, validatorPathToRegexp } from '../../src/http/perf/path-regexp-memo';

type Compiled = { regexp: RegExp; keys: { name: string }[] };

/** A stand-in module whose pathToRegexp counts its compiles (a fresh one per test: no shared state). */
function fakeModule() {
  const real = validatorPathToRegexp().pathToRegexp;
  const calls: unknown[] = [];
  const mod = {
    pathToRegexp: (path: unknown, options?: Record<string, unknown>) => {
      calls.push(path);
      return real(path, options);
    },
  };
  return { mod, calls };
}

describe('the bounded memo for the validator path-to-regexp', () => {
  it('when the same route is compiled twice with the same options, then the second call is a frozen cached result that still matches', () => {
    const { mod, calls } = fakeModule();
    memoizeValidatorPathToRegexp(mod);
    const first = mod.pathToRegexp('/books/:id', { sensitive: true, strict: false }) as Compiled;
    const second = mod.pathToRegexp('/books/:id', { sensitive: true, strict: false }) as Compiled;
    expect(second).toBe(first);
    expect(calls).toEqual(['/books/:id']);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.keys)).toBe(true);
    expect(first.regexp.exec('/books/42')?.[1]).toBe('42');
    expect(first.regexp.exec('/BOOKS/42')).toBeNull();
    expect(first.keys.map((k) => k.name)).toEqual(['id']);
  });

  it('when the options differ, then each combination gets its own compiled result', () => {
    const { mod, calls } = fakeModule();
    memoizeValidatorPathToRegexp(mod);
    const sensitive = mod.pathToRegexp('/books', { sensitive: true }) as Compiled;
    const insensitive = mod.pathToRegexp('/books', { sensitive: false }) as Compiled;
    expect(sensitive).not.toBe(insensitive);
    expect(sensitive.regexp.test('/BOOKS')).toBe(false);
    expect(insensitive.regexp.test('/BOOKS')).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('when the path is not a string or an option is not a known flag, then it is compiled every time, uncached', () => {
    const { mod, calls } = fakeModule();
    memoizeValidatorPathToRegexp(mod);
    mod.pathToRegexp(['/a', '/b']);
    mod.pathToRegexp(['/a', '/b']);
    mod.pathToRegexp('/c', { delimiter: '.' });
    mod.pathToRegexp('/c', { delimiter: '.' });
    expect(calls).toHaveLength(4);
  });

  it('when the memo is full, then new routes are compiled but not kept', () => {
    const { mod, calls } = fakeModule();
    const memo = memoizeValidatorPathToRegexp(mod, 2);
    for (const path of ['/a', '/b', '/c', '/c']) mod.pathToRegexp(path, {});
    expect(calls).toEqual(['/a', '/b', '/c', '/c']);
    expect([...memo.keys()]).toEqual(['/a', '/b']);
  });

  it('when it is installed twice, then the second install keeps the first memo', () => {
    const { mod } = fakeModule();
    const memo = memoizeValidatorPathToRegexp(mod);
    const installed = mod.pathToRegexp;
    expect(memoizeValidatorPathToRegexp(mod)).toBe(memo);
    expect(mod.pathToRegexp).toBe(installed);
  });
});
