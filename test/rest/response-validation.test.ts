import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { handlers } from '../../src/rest/handlers';
import type { Handlers } from '../../src/rest/types';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { expectJsonError } from '../support/rest-expect';

/**
 * A canary for response validation (on in tests and `npm run dev`, VALIDATE_RESPONSES elsewhere): a handler whose
 * answer breaks openapi.yaml must not reach the client as if it were the contract's; the 500 names the field, so
 * the mistake is seen where it is made. Checked through HTTP only, whatever does the checking.
 */
describe('response validation: an answer that breaks openapi.yaml', () => {
  /** The real app with getBook answering `answer(book)` for the stored book, and every log line it writes. */
  function appAnswering(answer: (book: Record<string, unknown>) => Record<string, unknown>) {
    const store = createMemoryStore(loadSeed('default'));
    const logs: Record<string, unknown>[] = [];
    const getBook: Handlers['getBook'] = async ({ params }) => {
      const book = await store.books.get(params.id);
      return { status: 200, body: answer({ ...book }) as never };
    };
    const app = createApp({
      store,
      config: testConfig(),
      logger: createLogger('debug', (line) => logs.push(JSON.parse(line))),
      handlers: { ...handlers, getBook },
    });
    return { http: request(app), logs };
  }

  /** Log lines at level error or fatal, as text. */
  const errorLines = (logs: Record<string, unknown>[]) =>
    logs.filter((line) => ['error', 'fatal', 50, 60].includes(line.level as string)).map((line) => JSON.stringify(line));

  const breaks: [string, string, string, (book: Record<string, unknown>) => Record<string, unknown>][] = [
    ['a book without its required title', 'title', "(root) must have required property 'title'", ({ title: _dropped, ...rest }) => rest],
    ['a string where pages is declared an integer', 'pages', '/pages must be integer', (book) => ({ ...book, pages: 'many' })],
  ];

  for (const [what, field, problem, broken] of breaks) {
    it(`when getBook answers ${what}, then the client gets a 500 naming the operation and the field (not the value), and the violation is logged`, async () => {
      let answer = broken;
      const { http, logs } = appAnswering((book) => answer(book));
      const res = await http.get('/books/1');
      expect(expectJsonError(res, 500)).toEqual({ error: `Unexpected error: getBook 200 body does not match openapi.yaml: ${problem}` });
      expect(res.text).not.toContain('many');
      const logged = errorLines(logs);
      expect(logged.some((line) => line.includes(field) && line.includes('/books/1'))).toBe(true);

      // The same app, the handler answering as the spec says: a 200 with the book.
      answer = (book) => book;
      const fine = await http.get('/books/1').expect(200);
      expect(fine.body).toEqual(expect.objectContaining({ id: 1, title: expect.any(String), pages: expect.any(Number) }));
      expect(errorLines(logs)).toEqual(logged);
    });
  }
});
