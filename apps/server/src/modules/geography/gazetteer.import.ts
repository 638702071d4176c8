import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { indexRecords } from '../../kit/search.ts';
import { tableChanged } from '../../kit/totals.ts';
import { SERVER_ROOT } from '../../paths.ts';
import { geographyResources } from './geography.resources.ts';

/**
 * The copy shipped with Depot (gzip of the JSON; source, licence and format in
 * apps/server/assets/README.md), so a clone anywhere can import it.
 */
export const SHIPPED_GAZETTEER = path.join(SERVER_ROOT, 'assets/cambodia-gazetteer.json.gz');

/** The gazetteer file: DEPOT_GAZETTEER_FILE, else the copy shipped with Depot. */
export function gazetteerFilePath(): string {
  return path.resolve(process.env.DEPOT_GAZETTEER_FILE || SHIPPED_GAZETTEER);
}

/** The units of a gazetteer file, plain JSON or gzipped (judged by its first bytes, not its name). */
export function readGazetteerFile(file: string = gazetteerFilePath()): unknown {
  const bytes = fs.readFileSync(file);
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return JSON.parse((gzipped ? gunzipSync(bytes) : bytes).toString('utf8'));
}

/** One unit of the gazetteer file (format: apps/server/assets/README.md). */
const unit = z.object({
  code: z.string().regex(/^\d{2,8}$/),
  type: z.enum(['province', 'municipality', 'district', 'commune', 'village']),
  parent_code: z.string().nullable(),
  name_km: z.string().min(1).max(50),
  name_en: z.string().max(50),
});
export const gazetteerFile = z.array(unit);
export type GazetteerUnit = z.infer<typeof unit>;

const levels = [
  { table: 'provinces', types: ['province', 'municipality'], parent: null },
  { table: 'districts', types: ['district'], parent: { column: 'province_id', table: 'provinces' } },
  { table: 'communes', types: ['commune'], parent: { column: 'district_id', table: 'districts' } },
  { table: 'villages', types: ['village'], parent: { column: 'commune_id', table: 'communes' } },
] as const;
type Level = (typeof levels)[number];

const BATCH = 500;

export interface ImportResult {
  provinces: number;
  districts: number;
  communes: number;
  villages: number;
  /** Rows inserted or changed; 0 when the data was already there. */
  changed: number;
}

/**
 * Imports the gazetteer in one transaction: each level is upserted by its official code, and a
 * row whose names and parent are unchanged is left as it is, so importing twice changes nothing.
 * A unit whose parent is missing fails the whole import.
 */
export async function importGazetteer(db: Db, input: unknown): Promise<ImportResult> {
  const units = gazetteerFile.parse(input);
  const imported = transaction(db, async (trx) => {
    const result: ImportResult = { provinces: 0, districts: 0, communes: 0, villages: 0, changed: 0 };
    let parentIds = new Map<string, number>();
    for (const level of levels) {
      const rows = units.filter((u) => (level.types as readonly string[]).includes(u.type));
      const at = now();
      const values = rows.map((u) => {
        const row: Record<string, unknown> = {
          code: u.code,
          name_kh: u.name_km,
          name_en: u.name_en || null,
          created_at: at,
          updated_at: at,
        };
        if (level.table === 'provinces') row.type = u.type;
        if (level.parent) {
          const parentId = u.parent_code ? parentIds.get(u.parent_code) : undefined;
          if (parentId === undefined) throw new Error(`${u.type} ${u.code}: parent ${u.parent_code} not found`);
          row[level.parent.column] = parentId;
        }
        return row;
      });
      for (let i = 0; i < values.length; i += BATCH) {
        result.changed += await upsert(trx, level, values.slice(i, i + BATCH));
      }
      result[level.table] = rows.length;
      const ids = await trx.selectFrom(level.table).select(['id', 'code']).execute();
      parentIds = new Map(ids.map((r) => [r.code, r.id]));
    }
    // names changed: the places are found by their new names (the index of the four levels, rebuilt)
    if (result.changed > 0) {
      const tables = new Set<string>(levels.map((level) => level.table));
      for (const def of geographyResources.filter((d) => tables.has(d.table))) await indexRecords(trx, def, null);
    }
    return result;
  });
  return imported.finally(() => Promise.all(levels.map((level) => tableChanged(db, level.table))));
}

async function upsert(trx: Db, level: Level, rows: Record<string, unknown>[]): Promise<number> {
  const updated = ['name_kh', 'name_en', ...(level.parent ? [level.parent.column] : []), 'updated_at'];
  const compared = updated.filter((c) => c !== 'updated_at');
  const result = await trx
    .insertInto(level.table)
    .values(rows as never)
    .onConflict((oc) =>
      oc
        .column('code')
        .doUpdateSet(Object.fromEntries(updated.map((c) => [c, sql.ref(`excluded.${c}`)])) as never)
        .where((eb) =>
          eb.or(
            compared.map(
              (c) => sql<boolean>`${sql.ref(`excluded.${c}`)} is distinct from ${sql.ref(`${level.table}.${c}`)}`,
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
