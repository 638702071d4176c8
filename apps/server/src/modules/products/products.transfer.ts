import {
  formatUsdCents,
  issuesToErrors,
  listQuery,
  PRODUCT_SHEET_COLUMNS,
  PRODUCT_SHEET_REQUIRED,
  type ProductImportRowError,
  type ProductSheetColumn,
  type product,
  productImportResult,
  productInput,
  todayInCambodia,
} from '@depot/contracts';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import type { ProductsTable } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError } from '../../http/errors.ts';
import { messagesFor, type Say } from '../../http/locale.ts';
import { inBatches, listFilters, resourceService } from '../../kit/resource.ts';
import { indexRecords } from '../../kit/search.ts';
import {
  type Cell,
  cleanCell,
  csvStream,
  EXPORT_CHUNK,
  FileRefusal,
  inChunks,
  lineCells,
  NameIndex,
  readHeader,
  readSheet,
  refusal,
  rielCell,
  rowsRefusal,
  type Sheet,
  type SheetLine,
  upload,
  usdCell,
  wholeNumber,
  XLSX_TYPE,
  xlsxStream,
} from '../../kit/spreadsheet.ts';
import { tableChanged } from '../../kit/totals.ts';
import { type Actor, can } from '../../policies/policy.ts';
import { productPolicy, productSheetColumns } from '../../policies/products.ts';
import { type ProductRow, products } from './products.resources.ts';

/*
 * Products to and from spreadsheets. An export is the list (same search, filters and order) as
 * xlsx or CSV, streamed in chunks. An import reads the same columns back, checks every row with
 * the API's schema and rules, and writes all of them in one transaction, or none.
 */

/** A product as the export reads it: the list's query, a chunk at a time. */
type Product = ProductRow;
type Input = z.output<typeof productInput>;

/** Rows per INSERT: 18 parameters a row stay well under both databases' limits. */
const INSERT_BATCH = 500;

// ─── export ─────────────────────────────────────────────────────────────────────────────────────

function sheetRow(p: Product, columns: readonly ProductSheetColumn[]): Cell[] {
  const cells: Record<ProductSheetColumn, Cell> = {
    sku: p.sku,
    barcode: p.barcode ?? '',
    name_kh: p.name_kh,
    name_en: p.name_en,
    short_name: p.short_name ?? '',
    brand: p.brand_name ?? '',
    category: p.category_name_en,
    sub_category: p.sub_category_name_en ?? '',
    unit: p.unit_name_en,
    price_usd: formatUsdCents(p.price_usd_cents),
    price_khr: p.price_khr ?? '',
    cost_usd: p.cost_usd_cents === undefined ? '' : formatUsdCents(p.cost_usd_cents),
    taxable: p.taxable ? 'yes' : 'no',
    expiry_date: p.expiry_date ?? '',
    reorder_level: p.reorder_level,
    status: p.status,
  };
  return columns.map((column) => cells[column]);
}

const WIDTHS: Partial<Record<ProductSheetColumn, number>> = {
  sku: 16,
  barcode: 16,
  name_kh: 32,
  name_en: 32,
  short_name: 16,
  brand: 16,
  category: 18,
  sub_category: 18,
};

// ─── checking the rows ──────────────────────────────────────────────────────────────────────────

/** Where each column's value goes in `productInput`. */
const FIELD: Record<ProductSheetColumn, keyof Input> = {
  sku: 'sku',
  barcode: 'barcode',
  name_kh: 'name_kh',
  name_en: 'name_en',
  short_name: 'short_name',
  brand: 'brand_id',
  category: 'category_id',
  sub_category: 'sub_category_id',
  unit: 'unit_id',
  price_usd: 'price_usd_cents',
  price_khr: 'price_khr',
  cost_usd: 'cost_usd_cents',
  taxable: 'taxable',
  expiry_date: 'expiry_date',
  reorder_level: 'reorder_level',
  status: 'status',
};
const COLUMN_OF = new Map(
  Object.entries(FIELD).map(([column, field]) => [field as string, column as ProductSheetColumn]),
);
const REQUIRED = new Set<string>(PRODUCT_SHEET_REQUIRED);
const YES = new Set(['yes', 'y', 'true', '1', 'បាទ', 'ចាស']);
const NO = new Set(['no', 'n', 'false', '0', 'ទេ']);

/** Every live brand, category, sub-category and unit, read once per import (a few hundred rows at most). */
async function loadReferences(trx: Db) {
  const [brands, categories, subCategories, units] = await Promise.all([
    trx.selectFrom('brands').select(['id', 'name']).where('deleted_at', 'is', null).execute(),
    trx.selectFrom('categories').select(['id', 'name_en', 'name_kh']).where('deleted_at', 'is', null).execute(),
    trx
      .selectFrom('sub_categories')
      .select(['id', 'category_id', 'name_en', 'name_kh'])
      .where('deleted_at', 'is', null)
      .execute(),
    trx
      .selectFrom('units')
      .select(['id', 'name_en', 'name_kh', 'short_name', 'base_unit_id'])
      .where('deleted_at', 'is', null)
      .execute(),
  ]);
  return {
    brand: new NameIndex(brands, [(r) => r.name]),
    category: new NameIndex(categories, [(r) => r.name_en, (r) => r.name_kh]),
    sub_category: new NameIndex(subCategories, [(r) => r.name_en, (r) => r.name_kh]),
    unit: new NameIndex(units, [(r) => r.name_en, (r) => r.name_kh, (r) => r.short_name]),
  };
}
type References = Awaited<ReturnType<typeof loadReferences>>;

/** Live products by lower-case SKU: a row naming one updates it. */
async function liveBySku(trx: Db, skus: string[]): Promise<Map<string, Selectable<ProductsTable>>> {
  const found = new Map<string, Selectable<ProductsTable>>();
  for (const batch of inBatches(skus)) {
    const rows = await trx
      .selectFrom('products')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where(sql<string>`lower(sku)`, 'in', batch)
      .execute();
    for (const row of rows) found.set(row.sku.toLowerCase(), row);
  }
  return found;
}

/** A stored product as the input that would write it again: the values of columns a file leaves out. */
function inputOf(row: Selectable<ProductsTable>): Record<string, unknown> {
  return {
    name_en: row.name_en,
    name_kh: row.name_kh,
    short_name: row.short_name,
    sku: row.sku,
    barcode: row.barcode,
    brand_id: row.brand_id,
    category_id: row.category_id,
    sub_category_id: row.sub_category_id,
    unit_id: row.unit_id,
    price_usd_cents: row.price_usd_cents,
    price_khr: row.price_khr,
    cost_usd_cents: row.cost_usd_cents,
    taxable: Number(row.taxable) === 1,
    expiry_date: row.expiry_date,
    reorder_level: row.reorder_level,
    status: row.status,
    serial_tracked: Number(row.serial_tracked) === 1,
    warranty_months: Number(row.warranty_months),
  };
}

interface Checked {
  errors: ProductImportRowError[];
  creates: Input[];
  updates: { current: Selectable<ProductsTable>; input: Input }[];
}

/** One row on its way through the checks. */
interface Row {
  line: SheetLine;
  /** The live product the row's SKU names: the row updates it. */
  current: Selectable<ProductsTable> | undefined;
  /** The product's fields as read from the row, before the schema. */
  raw: Record<string, unknown>;
  parsed: ReturnType<typeof productInput.safeParse>;
  /** The row's mistakes by column, the first one of each. */
  problems: Map<ProductSheetColumn, string>;
}

/**
 * A row's cells as `productInput` takes them, and what only a file can get wrong: an empty required
 * cell, a name that names no brand (or two), yes or no, the schema's messages on their columns, the
 * same SKU or barcode twice in the file, an update without products.update.
 */
function readRows(
  sheet: Sheet,
  index: Map<ProductSheetColumn, number>,
  context: {
    refs: References;
    existing: Map<string, Selectable<ProductsTable>>;
    canUpdate: boolean;
    say: Say;
  },
): Row[] {
  const { refs, existing, canUpdate, say } = context;
  const seen = { sku: new Map<string, number>(), barcode: new Map<string, number>() };
  const entityOf = {
    brand: 'entity.brand',
    category: 'entity.category',
    sub_category: 'entity.sub_category',
    unit: 'entity.unit',
  } as const;

  return sheet.lines.map((line) => {
    const { problems, fail, cell } = lineCells(line, index, say);

    const sku = cell('sku') ?? '';
    const current = sku ? existing.get(sku.toLowerCase()) : undefined;
    // an update starts from the product as it is: a column the file leaves out keeps its value
    const raw: Record<string, unknown> = current ? inputOf(current) : {};
    const put = (column: ProductSheetColumn, value: unknown) => {
      raw[FIELD[column]] = value;
    };

    // an empty required cell says so (a coerced number would read as "not valid")
    for (const column of PRODUCT_SHEET_REQUIRED) if (cell(column) === '') fail(column, 'validation.required');
    for (const column of ['sku', 'barcode', 'name_kh', 'name_en', 'short_name', 'expiry_date'] as const) {
      const text = cell(column);
      if (text !== undefined) put(column, text === '' ? (REQUIRED.has(column) ? undefined : null) : text);
    }
    for (const column of ['price_usd', 'cost_usd'] as const) {
      const text = cell(column);
      // not a price: the text goes to the schema, which says what is wrong with it
      if (text !== undefined) put(column, text === '' ? undefined : usdCell(text));
    }
    const khr = cell('price_khr');
    if (khr !== undefined) put('price_khr', khr === '' ? null : rielCell(khr));
    const reorder = cell('reorder_level');
    if (reorder !== undefined) put('reorder_level', reorder === '' ? undefined : wholeNumber(reorder));
    const status = cell('status');
    if (status !== undefined) put('status', status === '' ? undefined : status.toLowerCase());
    const taxable = cell('taxable')?.toLowerCase();
    if (taxable !== undefined) {
      if (taxable === '') put('taxable', undefined);
      else if (YES.has(taxable)) put('taxable', true);
      else if (NO.has(taxable)) put('taxable', false);
      else {
        put('taxable', undefined);
        fail('taxable', 'import.yes_no');
      }
    }
    for (const column of ['brand', 'category', 'sub_category', 'unit'] as const) {
      const text = cell(column);
      if (text === undefined) continue;
      if (text === '') {
        put(column, REQUIRED.has(column) ? undefined : null);
        continue;
      }
      const found = refs[column].find(text);
      if ('id' in found) put(column, found.id);
      else {
        put(column, undefined);
        fail(column, found.problem, { entity: say(entityOf[column]), name: text });
      }
    }

    const parsed = productInput.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      for (const [field, messages] of Object.entries(issuesToErrors(parsed.error.issues, say.locale, say.numerals))) {
        const column = COLUMN_OF.get(field);
        if (column && !problems.has(column)) problems.set(column, messages[0]);
      }
    }

    // within the file: the second of two rows with the same SKU or barcode is wrong
    for (const column of ['sku', 'barcode'] as const) {
      const key = cell(column)?.toLowerCase();
      if (!key) continue;
      const first = seen[column].get(key);
      if (first === undefined) seen[column].set(key, line.row);
      else fail(column, 'import.duplicate_in_file', { row: first });
    }
    if (current && !canUpdate) fail('sku', 'import.update_forbidden');
    return { line, current, raw, parsed, problems };
  });
}

/**
 * What the API's rules say of each row (`problems` of the products resource: unique among live
 * products, not a combo's code, references live, …), on the fields the schema took, so that a row
 * whose schema failed elsewhere is told every mistake at once.
 */
async function applyRules(
  trx: Db,
  rules: ReturnType<typeof resourceService<'products', typeof productInput, typeof product>>['problems'],
  rows: Row[],
  say: Say,
): Promise<void> {
  const inputs = rows.map(({ raw, parsed, current }) => {
    let input: Partial<Input> = raw as Partial<Input>;
    if (parsed.success) input = parsed.data;
    else {
      const refused = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
      input = Object.fromEntries(Object.entries(raw).filter(([field]) => !refused.has(field))) as Partial<Input>;
    }
    return { input, id: current?.id ?? null };
  });
  const found = await rules(trx, inputs);
  found.forEach((fields, i) => {
    for (const [field, key] of Object.entries(fields)) {
      const column = COLUMN_OF.get(field);
      if (column && !rows[i].problems.has(column)) rows[i].problems.set(column, say(key));
    }
  });
}

/** The rows' mistakes in the file's order (by row, then column), or the products to write. */
function collect(rows: Row[], index: Map<ProductSheetColumn, number>, context: { actor: Actor; say: Say }): Checked {
  const checked: Checked = { errors: [], creates: [], updates: [] };
  const order = (column: ProductSheetColumn) => index.get(column) ?? PRODUCT_SHEET_COLUMNS.length;
  for (const { line, current, parsed, problems } of rows) {
    // the product policy's rules of fields, as for the form: prices need prices.update, the cost
    // is kept as stored for someone who may not see it
    const allowed = parsed.success && !problems.size ? writable(context, parsed.data, current, problems) : null;
    if (allowed) {
      if (current) checked.updates.push({ current, input: allowed });
      else checked.creates.push(allowed);
    }
    for (const [column, message] of [...problems].sort(([a], [b]) => order(a) - order(b))) {
      const position = index.get(column);
      const value = position === undefined ? '' : cleanCell(line.cells[position]);
      checked.errors.push({ row: line.row, column, value, message });
    }
  }
  return checked;
}

/** A row's input as the actor may write it (productPolicy.write), or null with the refusal on its column. */
function writable(
  { actor, say }: { actor: Actor; say: Say },
  input: Input,
  current: Selectable<ProductsTable> | undefined,
  problems: Row['problems'],
): Input | null {
  try {
    return productPolicy.write(actor, input, current ?? null);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems.set('price_usd', say(error.key));
    return null;
  }
}

/**
 * The import itself, in one transaction: the references and the products the file names are read
 * in it, every row is checked, and only then is anything written. Any mistake rolls it all back.
 */
export async function importProducts(db: Db, sheet: Sheet, options: { canUpdate: boolean; say: Say; actor: Actor }) {
  const { index, errors } = readHeader(sheet.header, options.say, PRODUCT_SHEET_COLUMNS, PRODUCT_SHEET_REQUIRED);
  if (errors.length) throw rowsRefusal(options.say, errors);
  const values = (column: ProductSheetColumn) => {
    const position = index.get(column);
    if (position === undefined) return [];
    return [...new Set(sheet.lines.map((l) => cleanCell(l.cells[position]).toLowerCase()).filter((v) => v !== ''))];
  };

  const written = transaction(
    db,
    async (trx) => {
      const [refs, existing] = await Promise.all([loadReferences(trx), liveBySku(trx, values('sku'))]);
      const rows = readRows(sheet, index, { refs, existing, ...options });
      await applyRules(trx, resourceService(db, products).problems, rows, options.say);
      const checked = collect(rows, index, options);
      if (checked.errors.length) throw rowsRefusal(options.say, checked.errors);

      const at = now();
      const stored = (input: Input) => products.toRow?.(input) ?? input;
      for (const batch of inBatches(checked.creates, INSERT_BATCH)) {
        await trx
          .insertInto('products')
          .values(batch.map((input) => ({ ...stored(input), created_at: at, updated_at: at }) as never))
          .execute();
      }
      for (const { current, input } of checked.updates) {
        const values = stored(input) as Record<string, unknown>;
        // a row that changes nothing is counted but not written: the product keeps its updated_at
        const same = Object.entries(values).every(([k, v]) => (current as Record<string, unknown>)[k] === (v ?? null));
        if (same) continue;
        await trx
          .updateTable('products')
          .set({ ...values, updated_at: at } as never)
          .where('id', '=', current.id)
          .execute();
      }
      // the search finds them by their new names and codes
      const saved = await liveBySku(
        trx,
        [...checked.creates, ...checked.updates.map((u) => u.input)].map((p) => p.sku.toLowerCase()),
      );
      await indexRecords(
        trx,
        products,
        [...saved.values()].map((row) => row.id),
      );
      const created = checked.creates.length;
      const updated = checked.updates.length;
      return { created, updated, total: created + updated };
    },
    options.actor,
  );
  return written.finally(() => tableChanged(db, 'products'));
}

// ─── routes ─────────────────────────────────────────────────────────────────────────────────────

/**
 * `GET /api/products/export?format=xlsx|csv&<the list's parameters>` (products.list) and
 * `POST /api/products/import`, multipart with one `file` (products.create; rows that would update a
 * product need products.update as well, and are refused one by one without it).
 */
export async function registerProductTransfer(app: FastifyInstance, db: Db): Promise<void> {
  // pictures register multipart already; without them this module still works alone
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(fastifyMultipart);
  const service = resourceService(db, products);
  const filters = listFilters(products);
  const exportQuery = listQuery
    .pick({ search: true, sort: true, trashed: true })
    .extend(filters.shape)
    .extend({
      format: z.enum(['xlsx', 'csv']).default('xlsx'),
      /** The header and the guide without any product: a file to fill in. */
      template: z.enum(['true', 'false']).optional(),
    });

  app.get(
    '/api/products/export',
    { config: { access: 'products.list' }, schema: { tags: ['products'], querystring: exportQuery } },
    async (request, reply) => {
      const query = request.query as z.output<typeof exportQuery>;
      const actor = authOf(request);
      const rows = await service.select(actor, query, filters.read(query));
      const columns = productSheetColumns(actor);
      // the first chunk is read before answering: a failure here is still a proper error answer
      const first = query.template === 'true' ? [] : await rows.limit(EXPORT_CHUNK).execute();
      const chunks = inChunks(rows, first);
      const name = `products-${query.template === 'true' ? 'template' : todayInCambodia()}.${query.format}`;
      return reply
        .header('content-type', query.format === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(
          query.format === 'xlsx'
            ? xlsxStream(chunks, {
                name: 'import.sheet.products',
                columns: columns.map((key) => ({ key, width: WIDTHS[key] ?? 12 })),
                cellsOf: (p) => sheetRow(p, columns),
                required: PRODUCT_SHEET_REQUIRED,
                log: request.log,
              })
            : csvStream(chunks, columns, (p) => sheetRow(p, columns)),
        );
    },
  );

  app.post(
    '/api/products/import',
    {
      config: { access: 'products.create' },
      schema: { tags: ['products'], response: { 200: productImportResult } },
    },
    async (request) => {
      const say = await messagesFor(request);
      try {
        const sheet = await readSheet(await upload(request));
        // a row that would update a product needs products.update: such rows are refused one by one
        const actor = authOf(request);
        const data = await importProducts(db, sheet, { canUpdate: can(actor, 'products.update'), say, actor });
        return { message: say('import.done', data), data };
      } catch (error) {
        if (error instanceof FileRefusal) throw refusal(say, say(error.key, error.params));
        throw error;
      }
    },
  );
}
