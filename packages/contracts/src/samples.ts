import { z } from 'zod';

/**
 * Sample data (/samples): a demo depot an administrator loads to try Depot and removes again.
 * What it holds is fixed (SAMPLE_PLAN); what is loaded now is counted per table.
 */
export const SAMPLE_STATUSES = ['none', 'loading', 'loaded', 'removing', 'failed'] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];

/** What a load adds (besides the first store, which the sales use too). */
export const SAMPLE_PLAN = {
  products: 20,
  brands: 6,
  categories: 6,
  units: 6,
  suppliers: 3,
  customers: 6,
  stores: 1,
  purchases: 6,
  /** Sales over the days, ending yesterday (drawn by a seeded generator: always this many). */
  orders: 125,
  /** Days of sales, ending yesterday. */
  days: 21,
} as const;

/** The tables a load writes records of, in the order they are shown. */
export const SAMPLE_TABLES = [
  'products',
  'brands',
  'categories',
  'units',
  'suppliers',
  'customers',
  'stores',
  'users',
  'purchases',
  'orders',
  'invoices',
] as const;
export type SampleTable = (typeof SAMPLE_TABLES)[number];

export const sampleState = z.object({
  status: z.enum(SAMPLE_STATUSES),
  /** When the load began (null: none) and when it finished. */
  started_at: z.string().nullable(),
  loaded_at: z.string().nullable(),
  /** Who loaded it: null from the command line. */
  loaded_by_name: z.string().nullable(),
  /** Records of each table that belong to the sample data now. */
  counts: z.record(z.string(), z.number().int()),
  abilities: z.object({ load: z.boolean(), remove: z.boolean() }),
});
export type SampleState = z.infer<typeof sampleState>;
