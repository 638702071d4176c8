import { PassThrough, Readable, type Writable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import {
  formatUsdCents,
  issuesToErrors,
  listQuery,
  type MessageKey,
  type MessageParams,
  PRODUCT_IMPORT_MAX_MB,
  PRODUCT_IMPORT_MAX_ROWS,
  PRODUCT_SHEET_COLUMNS,
  PRODUCT_SHEET_REQUIRED,
  type ProductImportRowError,
  type ProductSheetColumn,
  parseUsdCents,
  type product,
  productImportResult,
  productInput,
  todayInCambodia,
  translate,
} from '@depot/contracts';
import { parseString } from '@fast-csv/parse';
import fastifyMultipart from '@fastify/multipart';
import type ExcelJS from 'exceljs';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { authOf, can } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import type { ProductsTable } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError } from '../../http/errors.ts';
import { type Say, sayer } from '../../http/locale.ts';
import { isBadText } from '../../http/text.ts';
import { readUpload } from '../../http/upload.ts';
import { loadExcel } from '../../kit/excel.ts';
import { inBatches, listFilters, resourceService } from '../../kit/resource.ts';
import { indexRecords } from '../../kit/search.ts';
import { tableChanged } from '../../kit/totals.ts';
import type { Actor } from '../../policies/policy.ts';
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
type Cell = string | number;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Rows read from the database at a time while exporting. */
const EXPORT_CHUNK = 1000;
/** Rows per INSERT: 18 parameters a row stay well under both databases' limits. */
const INSERT_BATCH = 500;
/** Row errors listed in a refusal; the summary counts them all. */
const ERRORS_LISTED = 1000;
/** What an xlsx may unpack to: 20,000 rows at their widest need about a third of it. */
const UNPACKED_MAX_MB = 100;

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

/** Text that Excel would run as a formula is written as text ("CSV injection"); an import takes the quote off. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: Cell): string {
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: readonly Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** CSV with a BOM, so that Excel reads UTF-8 and shows Khmer. The response pulls it chunk by chunk. */
function csvStream(chunks: AsyncIterable<Product[]>, columns: readonly ProductSheetColumn[]): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(`\uFEFF${csvLine(columns)}`);
      for await (const rows of chunks) yield Buffer.from(rows.map((p) => csvLine(sheetRow(p, columns))).join(''));
    })(),
    { objectMode: false },
  );
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

/** Resolves once a stream has room again, or has been closed (the client went away). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}

/**
 * The workbook, written as it is read: exceljs's streaming writer commits each row into the zip,
 * and the next chunk is read only when the response has taken what waits. A second sheet, Guide,
 * explains every column in Khmer and English.
 */
/** A label a Khmer reader and an English one both read: "ផលិតផល · Products". */
export function both(key: MessageKey): string {
  return `${translate(key, 'kh')} · ${translate(key, 'en')}`;
}

function xlsxStream(
  chunks: AsyncIterable<Product[]>,
  columns: readonly ProductSheetColumn[],
  log: FastifyBaseLogger,
): Readable {
  const out = new PassThrough();
  const write = async () => {
    const workbook = new (await loadExcel()).stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(both('import.sheet.products'), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((key) => ({ key, width: WIDTHS[key] ?? 12 }));
    const header = sheet.addRow([...columns]);
    header.font = { bold: true };
    header.commit();
    for await (const rows of chunks) {
      for (const p of rows) sheet.addRow(sheetRow(p, columns)).commit();
      if (out.writableNeedDrain) await drained(out);
      if (out.destroyed) return;
    }
    sheet.commit();

    const guide = workbook.addWorksheet(both('import.sheet.guide'), { views: [{ state: 'frozen', ySplit: 1 }] });
    guide.columns = [{ width: 16 }, { width: 10 }, { width: 70 }, { width: 70 }];
    const head = guide.addRow([both('import.guide.column'), both('import.guide.required'), 'ការពន្យល់', 'Explanation']);
    head.font = { bold: true };
    head.commit();
    const wrap = { wrapText: true, vertical: 'top' } as const;
    for (const column of columns) {
      const key = `import.guide.${column}` as MessageKey;
      const row = guide.addRow([
        column,
        PRODUCT_SHEET_REQUIRED.includes(column) ? both('import.guide.yes') : '',
        translate(key, 'kh'),
        translate(key, 'en'),
      ]);
      row.alignment = wrap;
      row.commit();
    }
    guide.addRow([]).commit();
    const intro = guide.addRow(['', '', translate('import.guide.intro', 'kh'), translate('import.guide.intro', 'en')]);
    intro.alignment = wrap;
    intro.commit();
    guide.commit();
    await workbook.commit();
  };
  write().catch((error) => {
    log.error({ err: error }, 'product export failed');
    out.destroy(error);
  });
  return out;
}

/** The query's rows, EXPORT_CHUNK at a time (offset paging in the list's order, id breaking ties). */
async function* inChunks<T>(
  query: { limit(n: number): { offset(n: number): { execute(): Promise<T[]> } } },
  first: T[],
): AsyncGenerator<T[]> {
  let rows = first;
  for (let offset = 0; rows.length; ) {
    yield rows;
    if (rows.length < EXPORT_CHUNK) return;
    offset += EXPORT_CHUNK;
    rows = await query.limit(EXPORT_CHUNK).offset(offset).execute();
  }
}

// ─── reading a file ─────────────────────────────────────────────────────────────────────────────

export interface Line {
  /** The spreadsheet's row number (1 is the first). */
  row: number;
  cells: string[];
}

/** A refusal of the whole file: 422 in the import's error shape, without row errors. */
export class FileRefusal extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params?: MessageParams,
  ) {
    super(key);
  }
}

/** The text of an xlsx cell whatever it holds: formulas give their result, dates their day. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  // 1.2600000000000002 (a sum in Excel) reads as 1.26; a third decimal stays and is refused
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return '';
}

/**
 * Inflates every entry of a zip against a ceiling (its declared sizes may lie), so that a small
 * file that unpacks to gigabytes is refused before exceljs reads it.
 */
function checkZip(bytes: Buffer, ceiling: number): void {
  const notXlsx = () => new FileRefusal('import.file_type');
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw notXlsx();
  const entries = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  try {
    for (let n = 0; n < entries; n++) {
      if (bytes.readUInt32LE(at) !== 0x02014b50) throw notXlsx();
      const method = bytes.readUInt16LE(at + 10);
      const packed = bytes.readUInt32LE(at + 20);
      const local = bytes.readUInt32LE(at + 42);
      at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
      if (bytes.readUInt32LE(local) !== 0x04034b50) throw notXlsx();
      const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
      const data = bytes.subarray(start, start + packed);
      if (method === 0) total += data.length;
      else if (method === 8) total += inflateRawSync(data, { maxOutputLength: ceiling - total + 1 }).length;
      else throw notXlsx();
      if (total > ceiling) throw new FileRefusal('import.unpacked_size', { mb: UNPACKED_MAX_MB });
    }
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new FileRefusal('import.unpacked_size', { mb: UNPACKED_MAX_MB });
    }
    throw notXlsx();
  }
}

/** The first worksheet's rows. Streamed: a sheet is never held whole, only the strings we keep. */
async function* xlsxLines(bytes: Buffer): AsyncGenerator<Line> {
  checkZip(bytes, UNPACKED_MAX_MB * 1024 * 1024);
  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(Readable.from(bytes), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache', // tells dates from numbers
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let first = true;
  // every sheet is walked to its end (the others unread): leaving early would strand exceljs's temporary files
  for await (const sheet of reader) {
    if (!first) continue;
    first = false;
    for await (const row of sheet) {
      const values = row.values as ExcelJS.CellValue[];
      yield { row: row.number, cells: Array.from(values.slice(1), cellText) };
    }
  }
  if (first) throw new FileRefusal('import.file_type'); // a zip without a worksheet (a .docx…)
}

function decodeText(bytes: Buffer): string {
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes);
    else text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); // drops a BOM
  } catch {
    throw new FileRefusal('import.file_type');
  }
  if (text.includes('\0')) throw new FileRefusal('import.file_type');
  return text.replace(/^\uFEFF/, '');
}

/** RFC 4180 records (fast-csv); the separator is the header line's comma, semicolon or tab (Excel's "CSV" varies). */
async function* csvLines(text: string): AsyncGenerator<Line> {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const count = (c: string) => firstLine.split(c).length;
  const delimiter = [',', ';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
  let row = 0;
  for await (const cells of parseString<string[], string[]>(text, { delimiter })) yield { row: ++row, cells };
}

export interface Sheet {
  header: Line;
  lines: Line[];
}

/** The header (the first row that is not empty) and the data rows, judged by content, not by name. */
export async function readSheet(bytes: Buffer): Promise<Sheet> {
  const zip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  const source = zip ? xlsxLines(bytes) : csvLines(decodeText(bytes));
  let header: Line | null = null;
  const lines: Line[] = [];
  let count = 0;
  try {
    for await (const line of source) {
      if (line.cells.every((c) => c.trim() === '')) continue;
      if (!header) header = line;
      else if (++count <= PRODUCT_IMPORT_MAX_ROWS) lines.push(line);
    }
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    throw new FileRefusal('import.file_type'); // a zip that is no workbook, broken XML…
  }
  if (count > PRODUCT_IMPORT_MAX_ROWS) {
    throw new FileRefusal('import.too_many_rows', { count, max: PRODUCT_IMPORT_MAX_ROWS });
  }
  if (!header || !count) throw new FileRefusal('import.empty');
  return { header, lines };
}

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

/** A cell as the rows read it: trimmed, without the quote an export puts before formula-like text. */
export function cleanCell(text: string | undefined): string {
  const trimmed = (text ?? '').trim();
  return trimmed.startsWith("'") && FORMULA_START.test(trimmed.slice(1)) ? trimmed.slice(1) : trimmed;
}

/** "5200" → 5200; anything else stays text, for the schema to call it not valid. */
export const wholeNumber = (text: string): number | string => (/^\d{1,15}$/.test(text) ? Number(text) : text);

const normal = (name: string) => name.trim().normalize('NFC').toLowerCase();

/**
 * Names to ids for one kind of record, looked up by each name in turn (English name, then Khmer
 * name, then short name). The first name that matches decides, so a unit's unique English name wins
 * over another unit's short name; two matches of the same name are ambiguous.
 */
export class NameIndex<R extends { id: number }> {
  private readonly levels: Map<string, number[]>[];
  constructor(records: R[], names: ((r: R) => string | null)[]) {
    this.levels = names.map((name) => {
      const level = new Map<string, number[]>();
      for (const r of records) {
        const key = name(r);
        if (key) level.set(normal(key), [...(level.get(normal(key)) ?? []), r.id]);
      }
      return level;
    });
  }
  find(name: string): { id: number } | { problem: 'import.not_found' | 'import.ambiguous' } {
    for (const level of this.levels) {
      const ids = level.get(normal(name));
      if (ids?.length === 1) return { id: ids[0] };
      if (ids) return { problem: 'import.ambiguous' };
    }
    return { problem: 'import.not_found' };
  }
}

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
  };
}

/** The header's columns by position; unknown, doubled and missing columns are errors of row 1. */
function readHeader(header: Line, say: Say) {
  const index = new Map<ProductSheetColumn, number>();
  const errors: ProductImportRowError[] = [];
  const known = new Set<string>(PRODUCT_SHEET_COLUMNS);
  const error = (column: string, value: string, key: MessageKey, params: MessageParams) =>
    errors.push({ row: header.row, column, value, message: say(key, params) });
  header.cells.forEach((text, position) => {
    const column = text.trim().toLowerCase();
    if (!column) return; // a blank header cell (a formatted, empty column) is no column
    if (!known.has(column)) {
      error(column, text, 'import.unknown_column', { column: text.trim(), columns: PRODUCT_SHEET_COLUMNS.join(', ') });
    } else if (index.has(column as ProductSheetColumn)) error(column, text, 'import.duplicate_column', { column });
    else index.set(column as ProductSheetColumn, position);
  });
  for (const column of PRODUCT_SHEET_REQUIRED) {
    if (!index.has(column)) error(column, '', 'import.missing_column', { column });
  }
  return { index, errors };
}

interface Checked {
  errors: ProductImportRowError[];
  creates: Input[];
  updates: { current: Selectable<ProductsTable>; input: Input }[];
}

/** One row on its way through the checks. */
interface Row {
  line: Line;
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
    const problems = new Map<ProductSheetColumn, string>();
    const fail = (column: ProductSheetColumn, key: MessageKey, params?: MessageParams) => {
      if (!problems.has(column)) problems.set(column, say(key, params));
    };
    /** The cell's text, or undefined when the file has no such column. */
    const cell = (column: ProductSheetColumn): string | undefined => {
      const position = index.get(column);
      if (position === undefined) return undefined;
      const text = cleanCell(line.cells[position]);
      // the same refusal as a NUL in the form's fields: the row is refused, the cell is not read
      if (!isBadText(text)) return text;
      fail(column, 'validation.characters');
      return undefined;
    };

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
      if (text !== undefined) put(column, text === '' ? undefined : (parseUsdCents(text.replace(/^\$/, '')) ?? text));
    }
    const khr = cell('price_khr');
    if (khr !== undefined) put('price_khr', khr === '' ? null : wholeNumber(khr.replace(/[\s,៛]/g, '') || khr));
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

/** The 422 of an import: a summary for the file and, where there are any, each row's mistakes. */
export function refusal(say: Say, summary: string, rows: ProductImportRowError[] = []): AppError {
  const listed = rows.slice(0, ERRORS_LISTED);
  const file = [summary];
  if (rows.length > listed.length) file.push(say('import.truncated', { shown: listed.length }));
  return new AppError(422, 'validation.failed', undefined, { body: { errors: { file }, rows: listed } });
}

export function rowsRefusal(say: Say, errors: ProductImportRowError[]): AppError {
  const rows = new Set(errors.map((e) => e.row)).size;
  return refusal(say, say('import.failed', { rows, count: errors.length }), errors);
}

/**
 * The import itself, in one transaction: the references and the products the file names are read
 * in it, every row is checked, and only then is anything written. Any mistake rolls it all back.
 */
export async function importProducts(db: Db, sheet: Sheet, options: { canUpdate: boolean; say: Say; actor: Actor }) {
  const { index, errors } = readHeader(sheet.header, options.say);
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

export async function upload(request: FastifyRequest): Promise<Buffer> {
  const { bytes } = await readUpload(request, {
    field: 'file',
    maxBytes: PRODUCT_IMPORT_MAX_MB * 1024 * 1024,
    tooLarge: () => new FileRefusal('import.file_size', { mb: PRODUCT_IMPORT_MAX_MB }),
  });
  if (!bytes) throw new FileRefusal('validation.required');
  return bytes;
}

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
        .send(query.format === 'xlsx' ? xlsxStream(chunks, columns, request.log) : csvStream(chunks, columns));
    },
  );

  app.post(
    '/api/products/import',
    {
      config: { access: 'products.create' },
      schema: { tags: ['products'], response: { 200: productImportResult } },
    },
    async (request) => {
      const say = await sayer(request);
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
