import type { ListQuery } from '../store/query';
import { LIST_BATCH, type ListResult } from '../store/types';
import type { ListBody } from './types';

/**
 * A list response: the page as the store read it (written by the registrar as it is read), `X-Total-Count` (the
 * filtered list's, when the store counted it), and an RFC 8288 `Link`: for a cursor page (`limit` without `offset`)
 * `next` with the cursor the store gave; for an offset page `next` and `prev` by offset. Links keep the request's
 * filters and sort (`search`, the request's query string) and its `limit`.
 */
export function listResult<T>(path: string, search: string, query: ListQuery, result: ListResult<T>) {
  const headers: Record<string, string> = result.total === undefined ? {} : { 'X-Total-Count': String(result.total) };
  const kept = new URLSearchParams(search);
  for (const name of ['limit', 'offset', 'after']) kept.delete(name);
  const base = `${path}?${kept.size ? `${kept}&` : ''}`;
  const links: string[] = [];
  if (query.offset === undefined) {
    if (result.next !== undefined) links.push(`<${base}limit=${query.limit}&after=${result.next}>; rel="next"`);
  } else {
    const total = result.total!;
    const offset = query.offset;
    const limit = query.limit ?? Math.max(total - offset, 1);
    const link = (rel: string, size: number, at: number) => `<${base}limit=${size}&offset=${at}>; rel="${rel}"`;
    if (offset + limit < total) links.push(link('next', limit, offset + limit));
    if (offset > 0) {
      // prev never points past the end (from beyond the last record it leads to the last page), and
      // never overlaps this page (from offset 1 with limit 4 it is the one record before).
      const end = Math.min(offset, total);
      const start = Math.max(end - limit, 0);
      links.push(link('prev', Math.max(end - start, 1), start));
    }
  }
  if (links.length) headers.Link = links.join(', ');
  return { status: 200 as const, headers, body: { query, result } satisfies ListBody<T> };
}

/** A page the request limits to one store batch at most: read at once, as a record is (src/http/write-turns.ts). */
export function readAtOnce(query: ListQuery): boolean {
  return query.limit !== undefined && query.limit <= LIST_BATCH;
}
