import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import { changesCursor, type ProductSnapshotAnswer, productSnapshot } from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { products } from './products.resources.ts';

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

/**
 * `GET /api/products/snapshot` (issue 34): a new till's first sync in one compressed answer instead
 * of a hundred pages of `/api/products/changes`; the till then reads the changes after its cursor.
 *
 * Built once per catalogue version and kept in this process's memory, compressed: the version is
 * the last (updated_at, id) of the products (every write of one moves it, 0027_changes_index) and
 * of the units (their names are on the till's lines). A snapshot built before a write is still
 * right, only older: the changes after its cursor (which the till reads from a little before it,
 * web changes.ts) bring what it lacks, so serving one a little late never loses a row.
 *
 * Who gets what: the route asks `products.list`, as the changes route does; the answer has no
 * cost and no stock, so it is the same for everyone who may list products and one copy serves them
 * all. A product policy with a scope (rows per store or user) would break that: registering the
 * route refuses it. `Cache-Control: private, no-cache` with an ETag: the browser may keep it, no
 * shared cache may, and every use asks the server again, which checks the permission before it
 * answers 304. No `Vary: Authorization`: the body does not depend on who asks.
 */

interface Built {
  key: string;
  etag: string;
  gzipped: Buffer;
}

interface State {
  built: Built | null;
  building: Promise<Built> | null;
}

// Per database: tests run many in one process.
const states = new WeakMap<Db, State>();

function stateOf(db: Db): State {
  let state = states.get(db);
  if (!state) {
    state = { built: null, building: null };
    states.set(db, state);
  }
  return state;
}

/** The catalogue's version: the last product and unit written (two index reads). */
async function versionOf(db: Db): Promise<string> {
  const [last, unit] = await Promise.all([
    db
      .selectFrom('products')
      .select(['updated_at', 'id'])
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('units')
      .select(['updated_at', 'id'])
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return `${last ? changesCursor(last) : ''}|${unit ? changesCursor(unit) : ''}`;
}

/**
 * The snapshot of the products now: the changes route's own query (products.resources.ts), every
 * row read in one statement so the cursor is that of the rows it holds; the active ones kept.
 */
export async function snapshotOf(db: Db): Promise<ProductSnapshotAnswer> {
  const rows = await products.query(db).orderBy('products.id').execute();
  const out: ProductSnapshotAnswer = {
    cursor: null,
    units: [],
    id: [],
    name_en: [],
    name_kh: [],
    sku: [],
    barcode: [],
    category_id: [],
    thumbnail_url: [],
    unit: [],
    price_usd_cents: [],
    taxable: [],
    serial_tracked: [],
    updated_at: [],
  };
  const unitPlace = new Map<number, number>();
  let last: { updated_at: string; id: number } | null = null;
  for (const row of rows) {
    if (!last || row.updated_at > last.updated_at || (row.updated_at === last.updated_at && row.id > last.id))
      last = row;
    if (row.deleted_at !== null || row.status !== 'active') continue;
    let place = unitPlace.get(row.unit_id);
    if (place === undefined) {
      place =
        out.units.push({
          id: row.unit_id,
          name_en: row.unit_name_en,
          name_kh: row.unit_name_kh,
          decimals: Number(row.unit_decimals),
        }) - 1;
      unitPlace.set(row.unit_id, place);
    }
    out.id.push(row.id);
    out.name_en.push(row.name_en);
    out.name_kh.push(row.name_kh);
    out.sku.push(row.sku);
    out.barcode.push(row.barcode);
    out.category_id.push(row.category_id);
    out.thumbnail_url.push(row.thumbnail_url);
    out.unit.push(place);
    out.price_usd_cents.push(row.price_usd_cents);
    // SQLite answers the comparison 0 or 1
    out.taxable.push(Boolean(row.taxable));
    out.serial_tracked.push(Boolean(row.serial_tracked));
    out.updated_at.push(row.updated_at);
  }
  out.cursor = last ? changesCursor(last) : null;
  return out;
}

async function build(db: Db, key: string): Promise<Built> {
  const json = Buffer.from(JSON.stringify(await snapshotOf(db)));
  return {
    key,
    etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    gzipped: await gzip(json, { level: 6 }),
  };
}

/**
 * The snapshot for the catalogue's version now: the one kept, else one build at a time (asked
 * while one is built, that one is answered, even if the version moved meanwhile: it is only older).
 */
export async function currentSnapshot(db: Db): Promise<Built> {
  const state = stateOf(db);
  const key = await versionOf(db);
  if (state.built?.key === key) return state.built;
  if (state.building) return state.building;
  state.building = build(db, key).finally(() => {
    state.building = null;
  });
  state.built = await state.building;
  return state.built;
}

const accepts = (request: FastifyRequest, etag: string) =>
  (request.headers['if-none-match'] ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(etag.replace(/^W\//, ''));

/** GET /api/products/snapshot. */
export async function registerProductSnapshot(app: FastifyInstance, db: Db): Promise<void> {
  if (products.policy?.scope) throw new Error('/api/products/snapshot is one for all: products must not be scoped');
  app.get(
    '/api/products/snapshot',
    {
      config: { access: 'products.list' },
      schema: {
        tags: ['products'],
        summary: "A new till's catalogue in one answer (304 to its ETag), then its changes after `cursor`",
        response: { 200: productSnapshot, 304: z.null().describe('Not modified: the ETag asked is current') },
      },
    },
    async (request, reply) => {
      const snapshot = await currentSnapshot(db);
      reply
        .header('cache-control', 'private, no-cache')
        .header('etag', snapshot.etag)
        .header('vary', 'Accept-Encoding')
        .type('application/json; charset=utf-8');
      if (accepts(request, snapshot.etag)) return reply.code(304).send();
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(snapshot.gzipped);
      return reply.send(await gunzip(snapshot.gzipped));
    },
  );
}
