import {
  formatUsdCents,
  issuesToErrors,
  listQuery,
  type MessageKey,
  PRICE_SHEET_COLUMNS,
  PRICE_SHEET_REQUIRED,
  type PriceSheetColumn,
  type ProductImportRowError,
  priceListInput,
  productImportResult,
  todayInCambodia,
  translate,
} from '@depot/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { messagesFor, type Say } from '../../http/locale.ts';
import { listFilters, resourceService } from '../../kit/resource.ts';
import {
  both,
  cleanCell,
  FileRefusal,
  lineCells,
  NameIndex,
  readHeader,
  readSheet,
  refusal,
  rielCell,
  rowsRefusal,
  type Sheet,
  upload,
  usdCell,
  wholeNumber,
  XLSX_TYPE,
} from '../../kit/spreadsheet.ts';
import { tableChanged } from '../../kit/totals.ts';
import { priceListPolicy } from '../../policies/prices.ts';
import { priceListProblems, priceLists } from './prices.resources.ts';

/*
 * Price lists to and from spreadsheets, through the kit's machinery (kit/spreadsheet.ts:
 * the file read by its bytes, zip bombs refused, CSV or xlsx, the refusal's shape). An export is the
 * list (its filters) as xlsx with a Guide sheet; an import checks every row with the API's schema
 * (`priceListInput`) and rules (`priceListProblems`) and writes all of them in one transaction, or
 * none. A row naming a list, product and unit (or category) and threshold that has a live row
 * updates it; the others are added.
 */

type Input = z.output<typeof priceListInput>;
type Column = PriceSheetColumn;

// ─── export ─────────────────────────────────────────────────────────────────────────────────────

const percentText = (bp: number) => String(bp / 100);

export async function priceWorkbook(
  rows: Awaited<ReturnType<ReturnType<typeof priceLists.query>['execute']>>,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(both('import.sheet.prices'), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = PRICE_SHEET_COLUMNS.map((key) => ({ key, width: key === 'list' || key === 'category' ? 24 : 14 }));
  sheet.addRow([...PRICE_SHEET_COLUMNS]).font = { bold: true };
  for (const r of rows) {
    const cells: Record<Column, string | number> = {
      list: r.group_name_en ?? '',
      scope: r.scope,
      sku: r.sku ?? '',
      unit: r.unit_name_en ?? '',
      category: r.category_name_en ?? '',
      min_quantity: Number(r.min_quantity),
      price_usd: r.price_cents === null ? '' : formatUsdCents(Number(r.price_cents)),
      price_khr: r.price_khr === null ? '' : Number(r.price_khr),
      percent_off: r.off_bp === null ? '' : percentText(Number(r.off_bp)),
      status: r.status,
    };
    sheet.addRow(PRICE_SHEET_COLUMNS.map((c) => cells[c]));
  }
  const guide = workbook.addWorksheet(both('import.sheet.guide'));
  guide.columns = [{ width: 16 }, { width: 10 }, { width: 70 }, { width: 70 }];
  guide.addRow([both('import.guide.column'), both('import.guide.required'), 'ការពន្យល់', 'Explanation']).font = {
    bold: true,
  };
  for (const column of PRICE_SHEET_COLUMNS) {
    const key = `price_import.guide.${column}` as MessageKey;
    guide.addRow([
      column,
      PRICE_SHEET_REQUIRED.includes(column) ? both('import.guide.yes') : '',
      translate(key, 'kh'),
      translate(key, 'en'),
    ]).alignment = { wrapText: true, vertical: 'top' };
  }
  guide.addRow([]);
  guide.addRow([
    '',
    '',
    translate('price_import.guide.intro', 'kh'),
    translate('price_import.guide.intro', 'en'),
  ]).alignment = { wrapText: true, vertical: 'top' };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ─── import ─────────────────────────────────────────────────────────────────────────────────────

const FIELD: Partial<Record<Column, keyof Input>> = {
  list: 'customer_group_id',
  scope: 'scope',
  sku: 'product_id',
  unit: 'unit_id',
  category: 'category_id',
  min_quantity: 'min_quantity',
  price_usd: 'price_cents',
  price_khr: 'price_khr',
  percent_off: 'off_bp',
  status: 'status',
};
const COLUMN_OF = new Map(Object.entries(FIELD).map(([column, field]) => [field as string, column as Column]));

async function references(trx: Db) {
  const [groups, products, units, categories] = await Promise.all([
    trx.selectFrom('customer_groups').select(['id', 'name_en', 'name_kh']).where('deleted_at', 'is', null).execute(),
    trx.selectFrom('products').select(['id', 'sku']).where('deleted_at', 'is', null).execute(),
    trx
      .selectFrom('units')
      .select(['id', 'name_en', 'name_kh', 'short_name'])
      .where('deleted_at', 'is', null)
      .execute(),
    trx.selectFrom('categories').select(['id', 'name_en', 'name_kh']).where('deleted_at', 'is', null).execute(),
  ]);
  return {
    list: new NameIndex(groups, [(r) => r.name_en, (r) => r.name_kh]),
    sku: new NameIndex(products, [(r) => r.sku]),
    unit: new NameIndex(units, [(r) => r.name_en, (r) => r.name_kh, (r) => r.short_name]),
    category: new NameIndex(categories, [(r) => r.name_en, (r) => r.name_kh]),
  };
}

const ENTITY = {
  list: 'entity.customer_group',
  sku: 'entity.product',
  unit: 'entity.unit',
  category: 'entity.category',
} as const;

/** The live row a sheet's row names (same list, product and unit or category, threshold), to update. */
async function liveRows(trx: Db) {
  const rows = await trx
    .selectFrom('price_lists')
    .select(['id', 'customer_group_id', 'scope', 'product_id', 'unit_id', 'category_id', 'min_quantity'])
    .where('deleted_at', 'is', null)
    .execute();
  const key = (r: Partial<Input>) =>
    r.scope === 'product'
      ? `${r.customer_group_id ?? 0}|p|${r.product_id}|${r.unit_id}|${r.min_quantity}`
      : `${r.customer_group_id ?? 0}|c|${r.category_id}|${r.min_quantity}`;
  const byKey = new Map(
    rows.map((r) => [
      key({
        customer_group_id: r.customer_group_id === null ? null : Number(r.customer_group_id),
        scope: r.scope,
        product_id: r.product_id === null ? null : Number(r.product_id),
        unit_id: r.unit_id === null ? null : Number(r.unit_id),
        category_id: r.category_id === null ? null : Number(r.category_id),
        min_quantity: Number(r.min_quantity),
      }),
      r.id,
    ]),
  );
  return { key, byKey };
}

export async function importPrices(db: Db, sheet: Sheet, options: { say: Say; actor: ReturnType<typeof authOf> }) {
  const { say, actor } = options;
  const { index, errors } = readHeader(sheet.header, say, PRICE_SHEET_COLUMNS, PRICE_SHEET_REQUIRED);
  if (errors.length) throw rowsRefusal(say, errors);
  const written = transaction(
    db,
    async (trx) => {
      const refs = await references(trx);
      const live = await liveRows(trx);
      const found: ProductImportRowError[] = [];
      const rows = sheet.lines.map((line) => {
        const { problems, fail, cell } = lineCells(line, index, say);
        const raw: Record<string, unknown> = {};
        const scope = (cell('scope') ?? '').toLowerCase();
        raw.scope = scope || undefined;
        for (const column of ['list', 'sku', 'unit', 'category'] as const) {
          const text = cell(column);
          if (!text) {
            raw[FIELD[column] as string] = null;
            continue;
          }
          const hit = refs[column].find(text);
          if ('id' in hit) raw[FIELD[column] as string] = hit.id;
          else fail(column, hit.problem, { entity: say(ENTITY[column]), name: text });
        }
        const quantity = cell('min_quantity');
        raw.min_quantity = quantity ? wholeNumber(quantity) : 1;
        const usd = cell('price_usd');
        raw.price_cents = usd ? usdCell(usd) : null;
        const khr = cell('price_khr');
        raw.price_khr = khr ? rielCell(khr) : null;
        const off = cell('percent_off')?.replace(/%$/, '');
        raw.off_bp = off ? (/^\d{1,3}(\.\d{1,2})?$/.test(off) ? Math.round(Number(off) * 100) : off) : null;
        const status = cell('status');
        raw.status = status ? status.toLowerCase() : undefined;
        const parsed = priceListInput.safeParse(raw, { reportInput: true });
        if (!parsed.success) {
          for (const [field, messages] of Object.entries(
            issuesToErrors(parsed.error.issues, say.locale, say.numerals),
          )) {
            const column = COLUMN_OF.get(field);
            if (column && !problems.has(column)) problems.set(column, messages[0]);
          }
        }
        const input = parsed.success ? parsed.data : null;
        return { line, problems, input, id: input ? (live.byKey.get(live.key(input)) ?? null) : null };
      });
      // the API's own rules (references live, the unit the product's, one row per key), the file's rows together
      const checkable = rows.filter((r) => r.input !== null);
      const rules = await priceListProblems(
        trx,
        checkable.map((r) => ({ input: r.input as Input, id: r.id })),
      );
      checkable.forEach((row, i) => {
        for (const [field, key] of Object.entries(rules[i])) {
          const column = COLUMN_OF.get(field) ?? 'scope';
          if (!row.problems.has(column)) row.problems.set(column, say(key));
        }
      });
      for (const { line, problems } of rows) {
        for (const [column, message] of problems) {
          const position = index.get(column);
          found.push({
            row: line.row,
            column,
            value: position === undefined ? '' : cleanCell(line.cells[position]),
            message,
          });
        }
      }
      if (found.length) throw rowsRefusal(say, found);

      const at = now();
      let created = 0;
      let updated = 0;
      for (const { input, id } of rows) {
        const values = priceLists.toRow?.(priceListPolicy.write(actor, input as Input)) as Record<string, unknown>;
        if (id === null) {
          await trx
            .insertInto('price_lists')
            .values({ ...values, created_at: at, updated_at: at } as never)
            .execute();
          created += 1;
        } else {
          await trx
            .updateTable('price_lists')
            .set({ ...values, updated_at: at } as never)
            .where('id', '=', id)
            .execute();
          updated += 1;
        }
      }
      return { created, updated, total: created + updated };
    },
    actor,
  );
  return written.finally(() => tableChanged(db, 'price_lists'));
}

/**
 * `GET /api/price-lists/export?<the list's filters>` (price_lists.list): the rows as xlsx, with a
 * Guide sheet; `template=true` the header and the guide alone. `POST /api/price-lists/import`,
 * multipart `file` (price_lists.create, and prices.update through the policy).
 */
export async function registerPriceTransfer(app: FastifyInstance, db: Db): Promise<void> {
  const service = resourceService(db, priceLists);
  const filters = listFilters(priceLists);
  const exportQuery = listQuery
    .pick({ sort: true, trashed: true })
    .extend(filters.shape)
    .extend({ template: z.enum(['true', 'false']).optional() });

  app.get(
    '/api/price-lists/export',
    { config: { access: 'price_lists.list' }, schema: { tags: ['prices'], querystring: exportQuery } },
    async (request, reply) => {
      const query = request.query as z.output<typeof exportQuery>;
      const actor = authOf(request);
      const rows =
        query.template === 'true' ? [] : await (await service.select(actor, query, filters.read(query))).execute();
      const name = `price-lists-${query.template === 'true' ? 'template' : todayInCambodia()}.xlsx`;
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(await priceWorkbook(rows as never));
    },
  );

  app.post(
    '/api/price-lists/import',
    { config: { access: 'price_lists.create' }, schema: { tags: ['prices'], response: { 200: productImportResult } } },
    async (request) => {
      const say = await messagesFor(request);
      const actor = authOf(request);
      priceListPolicy.authorize(actor);
      try {
        const sheet = await readSheet(await upload(request));
        const data = await importPrices(db, sheet, { say, actor });
        return { message: say('price_import.done', data), data };
      } catch (error) {
        if (error instanceof FileRefusal) throw refusal(say, say(error.key, error.params));
        throw error;
      }
    },
  );
}
