import { z } from 'zod';
import { MAX_ID } from './ids.ts';

/**
 * The one shape of every resource's list, show and write endpoints (DESIGN.md section 3, Laravel
 * style). The server's resource kit answers it; the web app's list page and form read it.
 */
export const PER_PAGE_OPTIONS = [10, 20, 50, 100] as const;
export const DEFAULT_PER_PAGE = 20;
export const RECORD_STATUSES = ['active', 'inactive'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/** `?page=&per_page=&search=&sort=-created_at&filter[status]=active&trashed=with|only` */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce
    .number()
    .int()
    .refine((n) => (PER_PAGE_OPTIONS as readonly number[]).includes(n), { params: { message: 'validation.choice' } })
    .default(DEFAULT_PER_PAGE),
  search: z.string().trim().max(100).optional(),
  sort: z.string().max(50).optional(),
  trashed: z.enum(['with', 'only']).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const paginationMeta = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  /** A search's total counted up to 1,000: there are more matches than `total` ("more than 1,000"). */
  total_is_lower_bound: z.boolean().optional(),
  last_page: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
});
export type PaginationMeta = z.infer<typeof paginationMeta>;

export const paginationLinks = z.object({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: paginationMeta, links: paginationLinks });
}

/**
 * `GET <list>/changes?after=<cursor>&per_page=`: a resource's records changed since a cursor, for a
 * copy kept elsewhere (the till's catalogue in IndexedDB). Ordered by (updated_at, id); the cursor
 * is the last record's `<updated_at>~<id>`, so a page boundary never skips or repeats a record.
 * Deleted records come too (their `deleted_at` set), and inactive ones: the copy drops them.
 */
export const CHANGES_MAX = 1000;
export const changesQuery = z.object({
  after: z
    .string()
    .max(100)
    .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z~\d{1,15}$/)
    .optional(),
  per_page: z.coerce.number().int().min(1).max(CHANGES_MAX).default(500),
});
export type ChangesQuery = z.infer<typeof changesQuery>;

export function changesPage<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next: z.string().nullable(), more: z.boolean() });
}

/** The cursor after a record: its `updated_at` and id. */
export function changesCursor(row: { updated_at: string; id: number }): string {
  return `${row.updated_at}~${row.id}`;
}

export function single<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** Writes answer a localized success message with the record. */
export function written<T extends z.ZodType>(item: T) {
  return z.object({ message: z.string(), data: item });
}

/** Fields every stored record shows. */
export const recordFields = {
  id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
};

export const idParams = z.object({ id: z.coerce.number().int().min(1).max(MAX_ID) });
