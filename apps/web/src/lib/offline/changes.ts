import { changesPage } from '@depot/contracts';
import type { z } from 'zod';
import { api } from '../http.ts';
import { outboxDb } from './outbox.ts';

/**
 * How the till keeps a table of the server's on the device (the products, localCatalogue.ts; the
 * combos, discounts and customers, localLists.ts): by what changed since its cursor
 * (`GET /api/<path>/changes`, a cursor of (updated_at, id)), page by page; a deleted or inactive
 * row leaves it, and an older copy of a row is never taken back.
 */

const PAGE = 1000;
/**
 * Each sync starts this far before the last cursor: a write whose transaction committed after a
 * later one was read (its updated_at is older than the cursor) is still read. Rows read again are
 * the same rows, put again.
 */
const OVERLAP_MS = 30_000;

/** A row the till no longer keeps: deleted or inactive. */
export const removed = (row: { deleted_at: string | null; status: string }) =>
  row.deleted_at !== null || row.status !== 'active';

function overlapped(cursor: string | null): string | undefined {
  if (!cursor) return undefined;
  const at = Date.parse(cursor.slice(0, cursor.lastIndexOf('~')));
  return `${new Date(at - OVERLAP_MS).toISOString()}~0`;
}

/**
 * Reads the changes of `path` since the cursor kept under `cursor` (less the overlap), page by
 * page, each kept by `apply` (which moves the cursor with the page it kept); answers the sum of
 * what `apply` answered. A failure leaves the cursor where the last page put it.
 */
export async function readChanges<R>(
  path: string,
  row: z.ZodType<R>,
  cursor: string,
  apply: (page: R[], next: string | null) => Promise<number>,
): Promise<number> {
  let after = overlapped(((await outboxDb().meta.get(cursor))?.value as string | undefined) ?? null);
  let changed = 0;
  for (;;) {
    const query = new URLSearchParams({ per_page: String(PAGE), ...(after && { after }) });
    const page = await api(`${path}/changes?${query}`, { schema: changesPage(row) });
    changed += await apply(page.data, page.next);
    after = page.next ?? undefined;
    if (!page.more) break;
  }
  return changed;
}
