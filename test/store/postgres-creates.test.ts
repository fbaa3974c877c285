import { OverloadedError } from '../../src/store/errors';
import { createPostgresStore } from '../../src/store/postgres';
import { ident } from '../../src/store/postgres/pool';
import type { ItemRecord, Store } from '../../src/store/types';
import { makeApp } from '../support/app';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { contractSeed } from './contract';

/** One create and when it was asked and answered (a shared clock), or its error. */
interface Timed {
  asked: number;
  answered: number;
  item?: ItemRecord;
  error?: unknown;
}

let clock = 0;
async function timed(create: () => Promise<ItemRecord>): Promise<Timed> {
  const asked = (clock += 1);
  try {
    const item = await create();
    return { asked, answered: (clock += 1), item };
  } catch (error) {
    return { asked, answered: (clock += 1), error };
  }
}

/** Creates answered before another create was asked that have the larger id: must be none. */
function outOfOrder(creates: Timed[]): [Timed, Timed][] {
  const done = creates.filter((c) => c.item);
  return done.flatMap((a) => done.filter((b) => a.answered < b.asked && a.item!.id > b.item!.id).map((b): [Timed, Timed] => [a, b]));
}

const consecutive = (ids: number[]) => [...ids].sort((a, b) => a - b).every((id, i, sorted) => i === 0 || id === sorted[i - 1] + 1);

describePostgres('PostgreSQL store: concurrent creates share transactions', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });
  const open = async (schema = db.newSchema()) => {
    const store = await createPostgresStore({ pool: db.shared(), schema, seed: contractSeed() });
    stores.push(store);
    return { store, schema };
  };
  /** How many transactions wrote these items (rows a transaction inserts share its xmin). */
  const transactionsOf = async (schema: string, ids: number[]) => {
    const { rows } = await db.shared().query(`SELECT count(DISTINCT xmin::text)::int AS n FROM ${ident(schema)}.items WHERE id = ANY($1)`, [ids]);
    return rows[0].n as number;
  };

  it('when 50 creates are asked at once, then each gets its own record, ids continue consecutively, and they share transactions', async () => {
    const { store, schema } = await open();
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => store.items.create({ name: `item ${i}` })));
    made.forEach((item, i) => expect(item.name).toBe(`item ${i}`));
    expect(made.map((item) => item.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    expect(await transactionsOf(schema, made.map((item) => item.id))).toBeLessThan(50);
    expect((await store.items.list()).total).toBe(51);
  });

  it('when one create of a group holds text the database refuses (U+0000), then only it fails; the others are stored with consecutive ids, still sharing transactions', async () => {
    const { store, schema } = await open();
    const names = Array.from({ length: 12 }, (_, i) => (i === 5 ? 'bad \u0000 name' : `item ${i}`));
    const outcomes = await Promise.allSettled(names.map((name) => store.items.create({ name })));
    expect(outcomes.map((o) => o.status)).toEqual(names.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    const made = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(made.map((item) => item.name)).toEqual(names.filter((_, i) => i !== 5));
    const ids = made.map((item) => item.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 2));
    expect(await transactionsOf(schema, ids)).toBeLessThan(11);
    // The refused create took no id.
    expect((await store.items.create({ name: 'next' })).id).toBe(13);
  });

  it('when two stores (two processes) create in the same collection at once, then ids are unique and gapless, and a create answered before another was asked has the smaller id', async () => {
    const { store: a, schema } = await open();
    const { store: b } = await open(schema);
    // Eight clients, four on each store, each creating one record after another.
    const client = async (n: number) => {
      const mine: Timed[] = [];
      for (let i = 0; i < 30; i += 1) mine.push(await timed(() => (n % 2 ? a : b).items.create({ name: `client ${n} item ${i}` })));
      return mine;
    };
    const creates = (await Promise.all(Array.from({ length: 8 }, (_, n) => client(n)))).flat();
    expect(creates.filter((c) => c.error)).toEqual([]);
    const ids = creates.map((c) => c.item!.id);
    expect(new Set(ids).size).toBe(240);
    expect(consecutive(ids)).toBe(true);
    expect(Math.min(...ids)).toBe(2);
    expect(outOfOrder(creates)).toEqual([]);
    // The order was put to the test: most pairs of creates were asked one after the other was answered.
    expect(creates.filter((x) => creates.some((y) => y.answered < x.asked && y.item!.id !== x.item!.id)).length).toBeGreaterThan(200);
    expect(await transactionsOf(schema, ids)).toBeLessThan(240);
  });

  it('when keyed creates (one key asked 10 times, 10 other keys) run among plain creates, then each key creates one record, ids stay gapless, and the plain creates share transactions', async () => {
    const { store, schema } = await open();
    const { http } = makeApp({ store: store as never });
    const post = (key: string | undefined, name: string) => {
      const req = http.post('/items').send({ name });
      return key ? req.set('Idempotency-Key', key) : req;
    };
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => post('same-key-1', 'keyed')),
      ...Array.from({ length: 10 }, (_, i) => post(`other-key-${i}`, `keyed ${i}`)),
      ...Array.from({ length: 30 }, (_, i) => post(undefined, `plain ${i}`)),
    ]);
    const same = answers.slice(0, 10);
    // The same key: one create, then its answer replayed, or 409 while it runs.
    expect(same.filter((r) => ![201, 409].includes(r.status))).toEqual([]);
    const created = same.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    for (const r of created) expect(r.body).toEqual(created[0].body);
    expect(answers.slice(10).map((r) => r.status)).toEqual(answers.slice(10).map(() => 201));
    const listed = (await store.items.list()).items;
    expect(listed.filter((item) => item.name === 'keyed')).toEqual([created[0].body]);
    expect(listed).toHaveLength(1 + 1 + 10 + 30);
    expect(consecutive(listed.map((item) => item.id))).toBe(true);
    const plain = answers.slice(20).map((r) => (r.body as ItemRecord).id);
    expect(await transactionsOf(schema, plain)).toBeLessThan(30);
  });

  it('when more creates wait for their group than the queue limit allows, then the extra ones fail at once as busy, create nothing, and the others are stored', async () => {
    const schema = db.newSchema();
    const store = await createPostgresStore({ pool: db.shared(), schema, seed: contractSeed(), queueLimit: 5 });
    stores.push(store);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.items.create({ name: `item ${i}` })));
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    const made = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const reason of refused) expect(reason).toBeInstanceOf(OverloadedError);
    expect(made.map((item) => item.id).sort((a, b) => a - b)).toEqual(made.map((_, i) => i + 2));
    expect((await store.items.list()).total).toBe(1 + made.length);
  });
});
