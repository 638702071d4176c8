import { PassThrough, Readable, type Writable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import {
  type MessageKey,
  type MessageParams,
  PRODUCT_IMPORT_MAX_MB,
  PRODUCT_IMPORT_MAX_ROWS,
  type ProductImportRowError,
  parseUsdCents,
  translate,
} from '@depot/contracts';
import { parseString } from '@fast-csv/parse';
import type ExcelJS from 'exceljs';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.ts';
import type { Say } from '../http/locale.ts';
import { isBadText } from '../http/text.ts';
import { readUpload } from '../http/upload.ts';
import { loadExcel } from './excel.ts';

/*
 * Spreadsheets in and out, whatever their records (products, price lists): CSV and xlsx written a
 * chunk at a time, a file read by its bytes (CSV or xlsx, zip bombs refused) into lines, cells
 * cleaned, names looked up, and an import's refusal in its one shape.
 */

export type Cell = string | number;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Rows read from the database at a time while exporting. */
export const EXPORT_CHUNK = 1000;
/** Row errors listed in a refusal; the summary counts them all. */
const ERRORS_LISTED = 1000;
/** What an xlsx may unpack to: 20,000 rows at their widest need about a third of it. */
const UNPACKED_MAX_MB = 100;

// ─── writing ────────────────────────────────────────────────────────────────────────────────────

/** Text that Excel would run as a formula is written as text ("CSV injection"); an import takes the quote off. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: Cell): string {
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * CSV with a BOM, so that Excel reads UTF-8 and shows Khmer: the header, then each record's cells.
 * The response pulls it chunk by chunk.
 */
export function csvStream<R>(
  chunks: AsyncIterable<R[]>,
  header: readonly Cell[],
  cellsOf: (record: R) => Cell[],
): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(`\uFEFF${csvLine(header)}`);
      for await (const rows of chunks) yield Buffer.from(rows.map((r) => csvLine(cellsOf(r))).join(''));
    })(),
    { objectMode: false },
  );
}

/** Resolves once a stream has room again, or has been closed (the client went away). */
export function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}

/** A label a Khmer reader and an English one both read: "ផលិតផល · Products". */
export function both(key: MessageKey): string {
  return `${translate(key, 'kh')} · ${translate(key, 'en')}`;
}

/** An xlsx workbook of one kind of record: its sheet's name, columns, each record's cells. */
export interface Workbook<R> {
  /** The catalogue key of the sheet's name, shown in Khmer and English ("ផលិតផល · Products"). */
  name: MessageKey;
  /** Each column's header and width; the Guide explains it by `import.guide.<key>`. */
  columns: readonly { key: string; width: number }[];
  cellsOf: (record: R) => Cell[];
  /** The columns a file must fill in: the Guide says so. */
  required: readonly string[];
  log: FastifyBaseLogger;
}

/**
 * The workbook, written as it is read: exceljs's streaming writer commits each row into the zip,
 * and the next chunk is read only when the response has taken what waits. A second sheet, Guide,
 * explains every column in Khmer and English.
 */
export function xlsxStream<R>(chunks: AsyncIterable<R[]>, book: Workbook<R>): Readable {
  const { columns, log } = book;
  const out = new PassThrough();
  const write = async () => {
    const workbook = new (await loadExcel()).stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(both(book.name), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map(({ key, width }) => ({ key, width }));
    const header = sheet.addRow(columns.map((c) => c.key));
    header.font = { bold: true };
    header.commit();
    for await (const rows of chunks) {
      for (const record of rows) sheet.addRow(book.cellsOf(record)).commit();
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
    for (const { key: column } of columns) {
      const key = `import.guide.${column}` as MessageKey;
      const row = guide.addRow([
        column,
        book.required.includes(column) ? both('import.guide.yes') : '',
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
    log.error({ err: error }, 'export failed');
    out.destroy(error);
  });
  return out;
}

/** The query's rows, EXPORT_CHUNK at a time (offset paging in the list's order, id breaking ties). */
export async function* inChunks<T>(
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

export interface SheetLine {
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
async function* xlsxLines(bytes: Buffer): AsyncGenerator<SheetLine> {
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
async function* csvLines(text: string): AsyncGenerator<SheetLine> {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const count = (c: string) => firstLine.split(c).length;
  const delimiter = [',', ';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
  let row = 0;
  for await (const cells of parseString<string[], string[]>(text, { delimiter })) yield { row: ++row, cells };
}

export interface Sheet {
  header: SheetLine;
  lines: SheetLine[];
}

/** The header (the first row that is not empty) and the data rows, judged by content, not by name. */
export async function readSheet(bytes: Buffer): Promise<Sheet> {
  const zip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  const source = zip ? xlsxLines(bytes) : csvLines(decodeText(bytes));
  let header: SheetLine | null = null;
  const lines: SheetLine[] = [];
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

// ─── reading the rows ───────────────────────────────────────────────────────────────────────────

/** A cell as the rows read it: trimmed, without the quote an export puts before formula-like text. */
export function cleanCell(text: string | undefined): string {
  const trimmed = (text ?? '').trim();
  return trimmed.startsWith("'") && FORMULA_START.test(trimmed.slice(1)) ? trimmed.slice(1) : trimmed;
}

/** "5200" → 5200; anything else stays text, for the schema to call it not valid. */
export const wholeNumber = (text: string): number | string => (/^\d{1,15}$/.test(text) ? Number(text) : text);

/**
 * The header's columns by position, for a sheet of these `columns` that must have `required`;
 * unknown, doubled and missing columns are errors of the header's row.
 */
export function readHeader<C extends string>(
  header: SheetLine,
  say: Say,
  columns: readonly C[],
  required: readonly C[],
): { index: Map<C, number>; errors: ProductImportRowError[] } {
  const index = new Map<C, number>();
  const errors: ProductImportRowError[] = [];
  const known = new Set<string>(columns);
  const error = (column: string, value: string, key: MessageKey, params: MessageParams) =>
    errors.push({ row: header.row, column, value, message: say(key, params) });
  header.cells.forEach((text, position) => {
    const column = text.trim().toLowerCase();
    if (!column) return; // a blank header cell (a formatted, empty column) is no column
    if (!known.has(column)) {
      error(column, text, 'import.unknown_column', { column: text.trim(), columns: columns.join(', ') });
    } else if (index.has(column as C)) error(column, text, 'import.duplicate_column', { column });
    else index.set(column as C, position);
  });
  for (const column of required) {
    if (!index.has(column)) error(column, '', 'import.missing_column', { column });
  }
  return { index, errors };
}

/** "$1.25" → 125 (cents); anything else stays text, for the schema to call it not valid. */
export const usdCell = (text: string): number | string => parseUsdCents(text.replace(/^\$/, '')) ?? text;

/** "5,200 ៛" → 5200 (riel); anything else stays text, for the schema to call it not valid. */
export const rielCell = (text: string): number | string => wholeNumber(text.replace(/[\s,៛]/g, '') || text);

/**
 * One line's cells by column, and its mistakes: the first one of each column. A cell the file has
 * no column for is undefined; a cell with a NUL or a lone surrogate is refused, as the form's
 * fields refuse it, and reads as undefined.
 */
export function lineCells<C>(line: SheetLine, index: Map<C, number>, say: Say) {
  const problems = new Map<C, string>();
  const fail = (column: C, key: MessageKey, params?: MessageParams) => {
    if (!problems.has(column)) problems.set(column, say(key, params));
  };
  const cell = (column: C): string | undefined => {
    const position = index.get(column);
    if (position === undefined) return undefined;
    const text = cleanCell(line.cells[position]);
    if (!isBadText(text)) return text;
    fail(column, 'validation.characters');
    return undefined;
  };
  return { problems, fail, cell };
}

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

/** The 422 of an import: a summary for the file and, where there are any, each row's mistakes. */
export function refusal(say: Say, summary: string, rows: ProductImportRowError[] = []): AppError {
  const listed = rows.slice(0, ERRORS_LISTED);
  const file = [summary];
  if (rows.length > listed.length) file.push(say('import.truncated', { shown: listed.length }));
  return new AppError(422, 'validation.failed', undefined, { body: { errors: { file }, rows: listed } });
}

/** The 422 of rows with mistakes: how many rows and mistakes, and each of them. */
export function rowsRefusal(say: Say, errors: ProductImportRowError[]): AppError {
  const rows = new Set(errors.map((e) => e.row)).size;
  return refusal(say, say('import.failed', { rows, count: errors.length }), errors);
}

/** The uploaded file (multipart field `file`), refused when missing or too large. */
export async function upload(request: FastifyRequest): Promise<Buffer> {
  const { bytes } = await readUpload(request, {
    field: 'file',
    maxBytes: PRODUCT_IMPORT_MAX_MB * 1024 * 1024,
    tooLarge: () => new FileRefusal('import.file_size', { mb: PRODUCT_IMPORT_MAX_MB }),
  });
  if (!bytes) throw new FileRefusal('validation.required');
  return bytes;
}
