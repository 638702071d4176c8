import { PERMISSIONS, SAMPLE_TABLES, type SampleState, type SampleStatus } from '@depot/contracts';
import { sql } from 'kysely';
import { type Db, now } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor } from '../../policies/policy.ts';
import { SAMPLE_LOAD as LOAD } from './samples.data.ts';
import { loadSamples } from './samples.load.ts';
import { removeSamples } from './samples.remove.ts';

/**
 * Sample data: a demo depot loaded through Depot's own services (the kit's creates, the purchases
 * service's receipts, the orders service's sales and payments), so its stock, ledger, payments,
 * invoices and search are as real as staff's; and removed again, record by record, from the list
 * of what the load created (`sample_records`): the load in samples.load.ts, the removal in
 * samples.remove.ts.
 *
 * Rules:
 * - One load at a time and one load at all: the `sample_loads` row named `demo` is claimed first
 *   (its key refuses a second claim); loading again when loaded adds nothing.
 * - The documents are written by an inactive sample cashier (no one signs in with it), in the
 *   first store and a sample second store, dated over the past weeks.
 * - Removal takes every record the load created, even one staff edited since, and nothing else.
 *   It is refused (409, saying what) while staff's own records use sample ones: a sale or a
 *   purchase of theirs with a sample product, customer, supplier or store, a stock movement,
 *   transfer, combo or discount of a sample product, a product of a sample brand, category or unit,
 *   a user or printer of the sample store. A voided or deleted record of theirs still counts (it
 *   still names the sample record): then the sample data stays, and may be deactivated instead.
 * - Document numbers the sample documents took are not given back (a number is never reused).
 */

/** A load or removal that has not finished after this long died with its process. */
const STALE_MS = 10 * 60 * 1000;

export function sampleService(db: Db, uploadsDir: string) {
  async function loadRow() {
    const row = await db.selectFrom('sample_loads').selectAll().where('name', '=', LOAD).executeTakeFirst();
    if (!row) return null;
    // a load or removal whose process died: it failed (what it made is listed, and removable)
    const stale =
      (row.status === 'loading' || row.status === 'removing') && Date.now() - Date.parse(row.started_at) > STALE_MS;
    return { ...row, status: stale ? ('failed' as const) : row.status };
  }

  /** Claims the load row for `status`; false when another load or removal holds it. */
  async function claim(status: 'loading' | 'removing', userId: number | null, from: SampleStatus[]): Promise<boolean> {
    const row = await loadRow();
    const at = now();
    if (!row) {
      if (status === 'removing') return false;
      try {
        await db
          .insertInto('sample_loads')
          .values({ name: LOAD, status, user_id: userId, started_at: at, finished_at: null })
          .execute();
        return true;
      } catch {
        return false; // another claim won the key
      }
    }
    if (!from.includes(row.status)) return false;
    // only the status read moves on: of two claims at once, one changes the row
    const stored = await db.selectFrom('sample_loads').select('status').where('name', '=', LOAD).executeTakeFirst();
    const changed = await db
      .updateTable('sample_loads')
      .set({ status, started_at: at, finished_at: null, ...(status === 'loading' ? { user_id: userId } : {}) })
      .where('name', '=', LOAD)
      .where('status', '=', stored?.status ?? row.status)
      .executeTakeFirst();
    return Number(changed.numUpdatedRows) === 1;
  }

  async function finish(status: 'loaded' | 'failed') {
    await db.updateTable('sample_loads').set({ status, finished_at: now() }).where('name', '=', LOAD).execute();
  }
  return {
    /** The sample data's state: loaded or not, when, by whom, how many records of each table. */
    async state(actor: Actor | null): Promise<SampleState> {
      const row = await loadRow();
      const counts = Object.fromEntries(SAMPLE_TABLES.map((t) => [t, 0]));
      const rows = await db
        .selectFrom('sample_records')
        .select(['table_name', sql<number>`count(*)`.as('n')])
        .groupBy('table_name')
        .execute();
      for (const r of rows) counts[r.table_name] = Number(r.n);
      const by = row?.user_id
        ? await db.selectFrom('users').select(['name', 'full_name']).where('id', '=', row.user_id).executeTakeFirst()
        : null;
      const status: SampleStatus = row?.status ?? 'none';
      const permitted = (p: string) => actor === null || actor.permissions.has(p);
      return {
        status,
        started_at: row?.started_at ?? null,
        loaded_at: row?.status === 'loaded' ? row.finished_at : null,
        loaded_by_name: by ? (by.full_name ?? by.name) : null,
        counts,
        abilities: {
          load: permitted('samples.generate') && (status === 'none' || status === 'failed'),
          remove: permitted('samples.delete') && (status === 'loaded' || status === 'failed'),
        },
      };
    },

    /**
     * Loads the demo depot once: `loaded: false` when it was loaded already (nothing added). A
     * load that failed half-way is removed first, then made again.
     */
    async load(
      byUserId: number | null,
    ): Promise<{ loaded: boolean; products: number; purchases: number; orders: number }> {
      const row = await loadRow();
      if (row?.status === 'loaded') return { loaded: false, products: 0, purchases: 0, orders: 0 };
      if (row?.status === 'failed') {
        if (!(await claim('removing', null, ['failed']))) throw new AppError(409, 'samples.busy');
        try {
          await removeSamples(db, uploadsDir);
        } catch (error) {
          await finish('failed');
          throw error;
        }
      }
      if (!(await claim('loading', byUserId, ['failed']))) {
        const now = await loadRow();
        if (now?.status === 'loaded') return { loaded: false, products: 0, purchases: 0, orders: 0 };
        throw new AppError(409, 'samples.busy');
      }
      try {
        const made = await loadSamples(db, uploadsDir, (userId, storeId) => ({
          userId,
          storeId,
          permissions: new Set(PERMISSIONS),
          coverage: { all: true, storeIds: [] },
          claim: null,
        }));
        await finish('loaded');
        return { loaded: true, ...made };
      } catch (error) {
        await finish('failed');
        throw error;
      }
    },

    /** Removes every record the load made; refused while staff's own records use them. */
    async remove(): Promise<void> {
      const row = await loadRow();
      if (!row) throw new AppError(409, 'samples.none');
      if (!(await claim('removing', null, ['loaded', 'failed']))) throw new AppError(409, 'samples.busy');
      try {
        await removeSamples(db, uploadsDir);
      } catch (error) {
        // refused or failed: the data stays as it was
        await db
          .updateTable('sample_loads')
          .set({ status: row.status, started_at: row.started_at, finished_at: row.finished_at })
          .where('name', '=', LOAD)
          .execute();
        throw error;
      }
    },
  };
}

export type SampleService = ReturnType<typeof sampleService>;
