import { StorageUnavailableError } from '../errors';
import type { RecordWrite } from '../sql/collection';
import { bindings, type Compiled, type TableSql } from '../sql/table';
import { COMMIT_GRACE_MS, WRITE_BUDGET_MS } from './transaction';

/** Where a record write runs (inside a transaction, within the transaction's own limits). */
export interface RecordWriteRunner {
  /** The record's read, and when it was sent (`Date.now()` time). */
  read(statement: Compiled, values: unknown[]): Promise<{ rows: unknown[][]; sentAt: number }>;
  /**
   * The write: sent only before `deadline` (`Date.now()` time; the runner checks as the statement's turn in its queue
   * comes, before it takes a connection), its answer awaited until `graceMs` after it.
   */
  write(statement: Compiled, values: unknown[], deadline: number, graceMs: number): Promise<unknown[][]>;
}

/**
 * A write to one record (an update, a delete) holding nothing between its read and its write: the record is read with
 * its row version (`xmin`) and the server's clock, the write is decided in JS (a failed If-Match writes nothing), and
 * one statement writes only if the row is still that version (when the write was decided on the record: `check`) and
 * the server reaches it before the write's deadline on its own clock (the dialect's `rowVersion`). If the row changed
 * in between, the record is read again and the write decided anew. A write decided on nothing is made on whatever
 * version the row has then, as a transaction would have made it after waiting for the row's lock. Outside a
 * transaction that is two round trips, the write its own commit, where a transaction took three (BEGIN, the write,
 * COMMIT) and four with a condition (and SELECT FOR UPDATE between).
 *
 * The deadline does for the write what COMMIT_IF_IN_TIME does for a transaction: a write that reaches a stalled
 * server after the service gave up on it (and answered 503) changes nothing. A write sent and not answered may or
 * may not be stored (the runner's `outcomeUnknown`); one the server refuses, or never sent, changed nothing.
 */
export async function writeRecord<R>(on: RecordWriteRunner, table: TableSql, id: number, write: RecordWrite<R>): Promise<R> {
  let deadline: { local: number; server: number } | undefined;
  for (;;) {
    const {
      rows: [row],
      sentAt,
    } = await on.read(table.byIdForWrite, [id]);
    if (!row) return write.written([]);
    const serverNow = Number(row.at(-1));
    if (!deadline) {
      // The budget starts as the first read is sent: here from when it was sent; on the server from its reading of its
      // clock less the time the read took, so the server's deadline is never the later of the two.
      deadline = { local: sentAt + WRITE_BUDGET_MS, server: serverNow - (Date.now() - sentAt) + WRITE_BUDGET_MS };
    }
    // The record as read now decides first: a refusal (a failed If-Match) is its answer even past the deadline.
    const checked = write.check?.(row);
    if (checked) return checked.result;
    if (serverNow >= deadline.server) throw new StorageUnavailableError('Write deadline passed on the server: nothing written');
    // A write decided on the record is made on its version only; one decided on nothing (no check) on any version.
    const version = write.check ? row.at(-2) : null;
    const rows = await on.write(write.statement, bindings(write.statement, [...write.slots, version, deadline.server]), deadline.local, COMMIT_GRACE_MS);
    if (rows.length > 0) return write.written(rows);
    // No row written: the record went (or, for a write decided on it, changed) since it was read, or the server
    // reached the write past the deadline (the next read says which).
  }
}
