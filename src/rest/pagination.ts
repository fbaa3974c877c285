import { LIST_BATCH, type ListResult, type Page } from '../store/types';
import type { ListBody } from './types';

/**
 * A list response: the page as the store read it (written by the registrar as it is read), `X-Total-Count`,
 * and an RFC 8288 `Link` with next/prev when paginating.
 */
export function listResult<T>(path: string, page: Page, result: ListResult<T>) {
  const headers: Record<string, string> = { 'X-Total-Count': String(result.total) };
  const paginating = page.limit !== undefined || page.offset !== undefined;
  if (paginating) {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? Math.max(result.total - offset, 1);
    const link = (rel: string, size: number, at: number) => `<${path}?limit=${size}&offset=${at}>; rel="${rel}"`;
    const links: string[] = [];
    if (offset + limit < result.total) links.push(link('next', limit, offset + limit));
    if (offset > 0) {
      // prev never points past the end (from beyond the last record it leads to the last page), and
      // never overlaps this page (from offset 1 with limit 4 it is the one record before).
      const end = Math.min(offset, result.total);
      const start = Math.max(end - limit, 0);
      links.push(link('prev', Math.max(end - start, 1), start));
    }
    if (links.length) headers.Link = links.join(', ');
  }
  return { status: 200 as const, headers, body: { page, result } satisfies ListBody<T> };
}

/** A page the request limits to one store batch at most: read at once, as a record is (src/http/write-turns.ts). */
export function readAtOnce(page: Page): boolean {
  return page.limit !== undefined && page.limit <= LIST_BATCH;
}
