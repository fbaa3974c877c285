import { sql } from 'kysely';
import { specModel } from '../../src/store/model';
import type { ListQuery } from '../../src/store/query';
import { postgres, sqlite, type Dialect } from '../../src/store/sql/dialect';
import { bindings, TableSql, type Stats } from '../../src/store/sql/table';
import { loadDriver } from '../../src/store/sqlite/driver';
import { openMemory } from '../../src/store/sqlite/setup';
import { tableOf, type TableDef } from '../../src/store/tables';
import { describePostgres, TestDatabase, testDatabaseUrl } from '../support/postgres';
import { contractSeed } from './contract';

/**
 * docs/contract.md §7: a cursor page costs the same at any depth, and as the collection grows. That holds when the
 * database reads a page as one range of an index, from where the cursor points, with no sort: a sort (or PostgreSQL's
 * incremental sort) reads every record tied with the cursor's, so a page costs more the more records share a value.
 * The plans are the observable here (timings would depend on the machine): the statement that reads on after a
 * record, for sorts on one field that every record has, each way, with a filter on that field.
 */

const books = (): TableDef => tableOf(specModel().resources.get('books')!);
const NO_STATS: Stats = { of: () => sql`(SELECT 0 AS total, 'v' AS version)` };

/** The statement that reads `size` records of `query` after `last`, and its parameters. */
function afterRecord(dialect: Dialect, qualified: string, query: ListQuery, last: Record<string, unknown>) {
  const table = new TableSql(books(), dialect, NO_STATS, qualified);
  const { statement, values } = table.plan(query, false, 20).next(last, 20);
  return { sql: statement.sql, parameters: bindings(statement, values) };
}

const CASES: [string, string, ListQuery][] = [
  ['-pages, pages >= 500', 'q_books_pages_desc', { sort: [{ field: 'pages', desc: true }], where: [{ field: 'pages', op: 'gte', value: 500 }] }],
  ['pages, pages >= 500', 'q_books_pages', { sort: [{ field: 'pages', desc: false }], where: [{ field: 'pages', op: 'gte', value: 500 }] }],
  ['-title', 'q_books_title_desc', { sort: [{ field: 'title', desc: true }] }],
];
const LAST = { id: 40, title: 'Lantern', pages: 700 };

describe('cursor pages as index ranges: SQLite (and the memory store)', () => {
  const { reader } = openMemory(loadDriver(), contractSeed(), [...specModel().resources.values()].map(tableOf));
  afterAll(() => reader.close());

  it.each(CASES)('when a list sorted by %s is read on from a record, then the page is a search of the %s index, with no sort', (_, index, query) => {
    const { sql: text, parameters } = afterRecord(sqlite, 'books', query, LAST);
    const plan = reader
      .prepare(`EXPLAIN QUERY PLAN ${text}`)
      .all(...(parameters as never[]))
      .map((row) => String(row.detail));
    expect(plan).toEqual([expect.stringMatching(new RegExp(`^SEARCH books USING (COVERING )?INDEX ${index} \\(`))]);
  });
});

describePostgres('cursor pages as index ranges: PostgreSQL', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it.each(CASES)('when a list sorted by %s is read on from a record, then the page is one index scan of %s bounded by the cursor, with no sort', async (_, index, query) => {
    const schema = db.newSchema();
    const store = await db.store(contractSeed(), { schema });
    const client = await db.shared().connect();
    try {
      // Plans that need a sort, or read the whole table, are priced out: what is left is the index's order or nothing.
      await client.query('SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off; SET enable_incremental_sort = off');
      const { sql: text, parameters } = afterRecord(postgres, `${schema}.books`, query, LAST);
      const plan = (await client.query(`EXPLAIN ${text}`, parameters)).rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${index} on books`));
      expect(plan).toMatch(/Index Cond: .*ROW\(/);
      expect(plan).not.toMatch(/Sort/);
    } finally {
      await client.query('RESET ALL');
      client.release();
      await store.close();
    }
  });
});
