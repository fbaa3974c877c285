import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSeed } from '../../src/store/seed';
import { startService, type ServiceProcess } from '../support/server-process';

/** One create sent while the service was under load, and its answer if one came. */
interface Sent {
  collection: 'books' | 'todos' | 'users';
  via: 'rest' | 'graphql';
  title: string;
  pages: number;
  key?: string;
  answer?: { status: number; created?: Record<string, unknown>; text: string };
}

const ADD_TODO = 'mutation Add($title: String!) { addTodo(title: $title) { id title done } }';
const CREATE_USER = 'mutation Create($name: String!, $email: String!) { createUser(name: $name, email: $email) { id name email } }';

/** The request that creates `one`, as fetch arguments. */
function requestOf(one: Sent): [string, RequestInit] {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(one.key ? { 'idempotency-key': one.key } : {}) };
  if (one.via === 'rest') {
    const body = one.collection === 'books' ? { title: one.title, pages: one.pages } : { text: one.title };
    return [`/${one.collection}`, { method: 'POST', headers, body: JSON.stringify(body) }];
  }
  const body =
    one.collection === 'todos'
      ? { query: ADD_TODO, variables: { title: one.title } }
      : { query: CREATE_USER, variables: { name: one.title, email: `${one.title}@example.com` } };
  return ['/graphql', { method: 'POST', headers, body: JSON.stringify(body) }];
}

/**
 * Sends `one`; its answer, with the record created when it succeeded (REST: the body; GraphQL: the
 * mutation's field), shown as GraphQL shows it (a todo's `text` is its `title`) with a numeric id.
 */
async function send(baseUrl: string, one: Sent): Promise<NonNullable<Sent['answer']>> {
  const [route, init] = requestOf(one);
  const res = await fetch(baseUrl + route, init);
  const text = await res.text();
  const json = JSON.parse(text);
  let created = one.via === 'rest' ? (res.status === 201 ? json : undefined) : !json.errors ? Object.values(json.data)[0] : undefined;
  if (created && 'text' in created) created = { id: created.id, title: created.text, done: created.done };
  return { status: res.status, created: created && { ...created, id: Number(created.id) }, text };
}

/** The record `one` asked for, as the store keeps it (GraphQL answers show a todo's text as `title`). */
function expected(one: Sent): Record<string, unknown> {
  if (one.collection === 'books') return { title: one.title, pages: one.pages };
  if (one.collection === 'users') return { name: one.title, email: `${one.title}@example.com` };
  return { title: one.title, done: false };
}

/** Every record of the three collections, read through GraphQL (whole lists) after the restart. */
async function readBack(baseUrl: string): Promise<Record<Sent['collection'], Record<string, unknown>[]>> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ books { id title pages } todos { id title done } users { id name email } }' }),
  });
  const { data } = (await res.json()) as { data: Record<Sent['collection'], Record<string, unknown>[]> };
  const numbered = (list: Record<string, unknown>[]) => list.map((record) => ({ ...record, id: Number(record.id) }));
  return { books: numbered(data.books), todos: numbered(data.todos), users: numbered(data.users) };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('SQLite store: the service killed (SIGKILL) under concurrent writes, then started again', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-crash-'));
  // As the README starts it (npm start: scripts/start.js, NODE_ENV=production), on a file of its own.
  const env = { SQLITE_FILE: path.join(dir, 'service.sqlite'), NODE_ENV: 'production', LOG_LEVEL: 'warn' };
  const services: ServiceProcess[] = [];
  const start = async () => {
    const service = await startService(env, 'scripts/start.js');
    services.push(service);
    return service;
  };
  afterAll(() => {
    for (const service of services) service.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('when creates over REST and GraphQL are acknowledged before the kill, then each is stored exactly once, ids go on with no gap and no reuse, and keys replay their answers', async () => {
    const first = await start();
    const sent: Sent[] = [];
    let killed = false;
    // 16 clients at once, each sending creates one after another until the service dies under them.
    type Client = [Sent['collection'], Sent['via'], boolean];
    const times = (n: number, client: Client): Client[] => Array.from({ length: n }, () => client);
    const plan: Client[] = [
      ...times(3, ['books', 'rest', false]),
      ...times(3, ['books', 'rest', true]),
      ...times(2, ['todos', 'rest', false]),
      ...times(2, ['todos', 'rest', true]),
      ...times(1, ['todos', 'graphql', false]),
      ...times(2, ['todos', 'graphql', true]),
      ...times(2, ['users', 'graphql', false]),
      ...times(1, ['users', 'graphql', true]),
    ];
    const clients = plan.map(async ([collection, via, keyed], client) => {
      for (let n = 0; ; n++) {
        if (killed) return;
        const one: Sent = { collection, via, title: `c${client}-${n}`, pages: n, key: keyed ? `crash-${client}-${n}` : undefined };
        sent.push(one);
        try {
          one.answer = await send(first.baseUrl, one);
        } catch {
          return; // no answer: the service was killed while this create was in flight
        }
      }
    });
    await until(() => sent.filter((one) => one.answer).length >= 400);
    first.child.kill('SIGKILL');
    killed = true;
    await first.exited;
    await Promise.all(clients);

    const answered = sent.filter((one) => one.answer);
    // Before the kill every create succeeded: no error answer, no answer without its record.
    expect(answered.filter((one) => !one.answer!.created).map((one) => one.answer!.text)).toEqual([]);
    const second = await start();
    const stored = await readBack(second.baseUrl);
    const seed = loadSeed('default');

    for (const collection of ['books', 'todos', 'users'] as const) {
      const mine = sent.filter((one) => one.collection === collection);
      const byTitle = new Map<string, Record<string, unknown>[]>();
      for (const record of stored[collection]) {
        const title = String(record.title ?? record.name);
        byTitle.set(title, [...(byTitle.get(title) ?? []), record]);
      }
      // Acknowledged: there, once, as answered. Not acknowledged: absent, or there once and whole.
      for (const one of mine) {
        const found = byTitle.get(one.title) ?? [];
        if (one.answer) expect({ title: one.title, found }).toEqual({ title: one.title, found: [one.answer.created] });
        else expect(found.map(({ id: _id, ...rest }) => rest)).toEqual(found.length ? [expected(one)] : []);
      }
      // Ids: the seed's, then every id from the largest seeded + 1 to the largest given, none skipped.
      const seededMax = Math.max(...seed[collection].map((record) => record.id));
      const ids = stored[collection].map((record) => record.id as number).filter((id) => id > seededMax);
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => seededMax + 1 + i));
      expect(ids.length).toBeGreaterThanOrEqual(mine.filter((one) => one.answer).length);
    }

    // Replayed keys answer as the first time; keys whose answer was lost create once (or replay what was stored).
    for (const one of sent.filter((s) => s.key)) {
      const again = await send(second.baseUrl, one);
      if (one.answer) expect({ key: one.key, status: again.status, text: again.text }).toEqual({ key: one.key, status: one.answer.status, text: one.answer.text });
      else expect(again.created).toMatchObject(expected(one));
    }
    const after = await readBack(second.baseUrl);
    for (const one of sent.filter((s) => s.key)) {
      expect({ key: one.key, count: after[one.collection].filter((record) => (record.title ?? record.name) === one.title).length }).toEqual({ key: one.key, count: 1 });
    }
    // The next create takes the next id: none reused, none skipped.
    const next = await send(second.baseUrl, { collection: 'books', via: 'rest', title: 'after the restart', pages: 1 });
    expect(next.created!.id).toBe(Math.max(...after.books.map((record) => record.id as number)) + 1);
  });
});
