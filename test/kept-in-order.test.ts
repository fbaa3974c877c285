import { KeptInOrder } from '../src/kept-in-order';

/** The keys of 1..n that `kept` still holds. */
const held = (kept: KeptInOrder<number, string>, n: number) => Array.from({ length: n }, (_, i) => i + 1).filter((key) => kept.get(key) !== undefined);

describe("KeptInOrder (the service's own bounded maps)", () => {
  it('when no weight is given, then the bound is a count and the value kept longest goes first', () => {
    const kept = new KeptInOrder<number, string>(3);
    for (let key = 1; key <= 5; key += 1) expect(kept.keep(key, `v${key}`)).toBe(true);
    expect(held(kept, 5)).toEqual([3, 4, 5]);
    expect(kept.size).toBe(3);
    expect(kept.get(5)).toBe('v5');
  });

  it('when a key is kept again, then it counts from then, with its new value', () => {
    const kept = new KeptInOrder<number, string>(3);
    for (const key of [1, 2, 3]) kept.keep(key, `v${key}`);
    kept.keep(1, 'again');
    kept.keep(4, 'v4');
    expect(held(kept, 4)).toEqual([1, 3, 4]);
    expect(kept.get(1)).toBe('again');
  });

  it('when a key is forgotten or all are cleared, then they are gone and their room is free', () => {
    const kept = new KeptInOrder<number, string>(2);
    kept.keep(1, 'v1');
    kept.keep(2, 'v2');
    kept.forget(1);
    kept.keep(3, 'v3');
    expect(held(kept, 3)).toEqual([2, 3]);
    kept.clear();
    expect(kept.size).toBe(0);
    kept.keep(4, 'v4');
    kept.keep(5, 'v5');
    expect(held(kept, 5)).toEqual([4, 5]);
  });

  it('when values have weights, then the bound holds their sum and one heavier than the bound is refused, changing nothing', () => {
    const kept = new KeptInOrder<number, string>(10, (value) => value.length);
    kept.keep(1, 'aaaa');
    kept.keep(2, 'bbbb');
    expect(kept.keep(3, 'c'.repeat(11))).toBe(false);
    expect(held(kept, 3)).toEqual([1, 2]);
    kept.keep(4, 'dddd');
    expect(held(kept, 4)).toEqual([2, 4]);
  });

  it('when many more keys pass through than it keeps, with keys kept again and forgotten, then it holds what a plain list would', () => {
    const kept = new KeptInOrder<number, string>(100);
    // The same steps on a plain list of keys, oldest first.
    let model: number[] = [];
    const keep = (key: number) => {
      kept.keep(key, `v${key}`);
      model = [...model.filter((k) => k !== key), key].slice(-100);
    };
    for (let key = 1; key <= 20000; key += 1) {
      keep(key);
      if (key % 7 === 0) keep(key - 3);
      if (key % 11 === 0) {
        kept.forget(key - 1);
        model = model.filter((k) => k !== key - 1);
      }
    }
    expect(held(kept, 20000)).toEqual([...model].sort((a, b) => a - b));
    expect(kept.size).toBe(model.length);
  });
});
