import {
  DEFAULT_LABEL_SETTINGS,
  formatKhr,
  formatUsd,
  LABEL_SHEETS,
  type LabelItems,
  type LabelKind,
  type LabelSettings,
  type LabelSheet,
  labelSettings,
  type labelsInput,
  rielOf,
  storeBarcode,
  symbologyOf,
} from '@depot/contracts';
import bwipjs from 'bwip-js/node';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { nextValue } from '../../db/sequences.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { FieldError } from '../../http/errors.ts';
import { escapeHtml } from '../../kit/html.ts';
import { fontFaces } from '../../kit/pdf.ts';
import { indexRecords } from '../../kit/search.ts';
import { type Actor, can } from '../../policies/policy.ts';
import { type AuditWho, auditWho, changes, recordAudit } from '../audit/audit.ts';
import { productSearch } from '../products/products.search.ts';
import { readSettings, writeSettings } from '../rates/rates.repository.ts';
import { saleRates } from '../rates/rates.service.ts';

type Input = z.output<typeof labelsInput>;

/** The label settings are rows of `settings` under these keys. */
const KEYS: Record<keyof LabelSettings, string> = {
  barcode_sheet: 'label_barcode_sheet',
  tag_sheet: 'label_tag_sheet',
};
const FIELDS = Object.keys(KEYS) as (keyof LabelSettings)[];

export async function readLabelSettings(db: Db): Promise<LabelSettings> {
  const stored = await readSettings(db, Object.values(KEYS));
  const result: LabelSettings = { ...DEFAULT_LABEL_SETTINGS };
  for (const field of FIELDS) {
    const parsed = labelSettings.shape[field].safeParse(stored[KEYS[field]]);
    if (parsed.success) Object.assign(result, { [field]: parsed.data });
  }
  return result;
}

export async function writeLabelSettings(db: Db, input: LabelSettings, who: AuditWho): Promise<LabelSettings> {
  await transaction(db, async (trx) => {
    const before = await readLabelSettings(trx);
    const diff = changes(before as unknown as Record<string, unknown>, input);
    await writeSettings(trx, Object.fromEntries(FIELDS.map((field) => [KEYS[field], input[field]])), now());
    if (diff.changed)
      await recordAudit(trx, who, { action: 'settings.labels', before: diff.before, after: diff.after });
    emit(trx, event('SettingsChanged', { keys: FIELDS.map((field) => KEYS[field]) }));
  });
  return readLabelSettings(db);
}

/** One product as a label shows it. */
export interface LabelProduct {
  id: number;
  name_en: string;
  name_kh: string;
  sku: string;
  barcode: string | null;
  price_usd_cents: number;
  price_khr: number;
  unit_en: string;
  unit_kh: string;
}

/**
 * The products of a print, in the order asked, each with its barcode: a product without one gets
 * the store's own EAN-13 (prefix 20/21, labels.ts `storeBarcode`), saved on it in this transaction so
 * the till scans it (its `updated_at` moves: the till's catalogue picks it up), searchable, audited.
 * That is a change to the product: without products.update a barcode label of it is refused, a shelf
 * tag is drawn without bars.
 */
async function productsOf(db: Db, actor: Actor, input: Pick<Input, 'items' | 'kind'>): Promise<LabelProduct[]> {
  const ids = [...new Set(input.items.map((item) => item.product_id))];
  return transaction(
    db,
    async (trx) => {
      const rows = await trx
        .selectFrom('products')
        .innerJoin('units', 'units.id', 'products.unit_id')
        .select([
          'products.id',
          'products.name_en',
          'products.name_kh',
          'products.sku',
          'products.barcode',
          'products.price_usd_cents',
          'products.price_khr',
          'units.short_name as unit_short',
          'units.name_en as unit_en',
          'units.name_kh as unit_kh',
        ])
        .where('products.id', 'in', ids)
        .where('products.deleted_at', 'is', null)
        .execute();
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      const missing = input.items.findIndex((item) => !byId.has(item.product_id));
      if (missing >= 0) throw new FieldError({ [`items.${missing}.product_id`]: [{ key: 'label.product_missing' }] });
      const bare = ids.filter((id) => !byId.get(id)!.barcode);
      if (bare.length > 0 && !can(actor, 'products.update')) {
        if (input.kind === 'barcode') {
          const at = input.items.findIndex((item) => item.product_id === bare[0]);
          throw new FieldError({
            [`items.${at}.product_id`]: [{ key: 'label.no_barcode', params: { name: byId.get(bare[0])!.name_en } }],
          });
        }
      } else if (bare.length > 0) {
        const at = now();
        for (const id of bare) {
          let code: string;
          // a code someone typed on another product is passed over
          do code = storeBarcode(await nextValue(trx, 'store_barcode'));
          while (await trx.selectFrom('products').select('id').where('barcode', '=', code).executeTakeFirst());
          const done = await trx
            .updateTable('products')
            .set({ barcode: code, updated_at: at })
            .where('id', '=', id)
            .where('barcode', 'is', null)
            .executeTakeFirst();
          if (Number(done.numUpdatedRows) !== 1) {
            // another print gave it one meanwhile: that one is its barcode
            const current = await trx.selectFrom('products').select('barcode').where('id', '=', id).executeTakeFirst();
            byId.get(id)!.barcode = current?.barcode ?? null;
          } else {
            byId.get(id)!.barcode = code;
            await recordAudit(trx, auditWho(actor), {
              action: 'product.barcode',
              subject: { type: 'product', id },
              before: { barcode: null },
              after: { barcode: code },
            });
          }
        }
        await indexRecords(trx, productSearch, bare);
      }
      const rates = await saleRates(trx);
      return ids.map((id) => {
        const row = byId.get(id)!;
        const cents = Number(row.price_usd_cents);
        return {
          id,
          name_en: row.name_en,
          name_kh: row.name_kh,
          sku: row.sku,
          barcode: row.barcode,
          price_usd_cents: cents,
          // the product's own riel price for its labels, else the riel figure at today's rate
          price_khr: row.price_khr === null ? rielOf(cents, rates) : Number(row.price_khr),
          unit_en: row.unit_short || row.unit_en,
          unit_kh: row.unit_kh,
        };
      });
    },
    actor,
  );
}

/**
 * The bars of a code as SVG (bwip-js draws them; the digits under them are paths too), `module` mm a
 * bar module (a scanner reads 0.26 to 0.66), EAN and UPC with their quiet-zone marks.
 */
export function barcodeSvg(code: string, module: number): string {
  const bcid = symbologyOf(code);
  const svg = bwipjs.toSVG({
    bcid,
    text: code,
    scale: 2,
    height: 9,
    includetext: true,
    // a quiet zone of ten modules each side: EAN and UPC with their marks, Code 128 as padding
    ...(bcid === 'code128' ? { textxalign: 'center', paddingwidth: 10 } : { guardwhitespace: true }),
  });
  // the drawing's size in millimetres (2 units a module), so CSS can shrink it keeping its shape
  const [, , w, h] = (/viewBox="([\d. ]+)"/.exec(svg)?.[1] ?? '0 0 0 0').split(' ').map(Number);
  return svg.replace(
    '<svg ',
    `<svg width="${((w * module) / 2).toFixed(2)}mm" height="${((h * module) / 2).toFixed(2)}mm" `,
  );
}

function labelHtml(kind: LabelKind, product: LabelProduct): string {
  const names = `<div class="kh">${escapeHtml(product.name_kh)}</div><div class="en">${escapeHtml(product.name_en)}</div>`;
  const bars = product.barcode
    ? `<div class="bars">${barcodeSvg(product.barcode, kind === 'tag' ? 0.26 : 0.33)}</div>`
    : '';
  const usd = escapeHtml(formatUsd(product.price_usd_cents, 'latin'));
  const khr = escapeHtml(formatKhr(product.price_khr, 'latin'));
  if (kind === 'barcode') {
    return `<div class="label">${names}${bars}<div class="price"><b>${usd}</b> · ${khr}</div></div>`;
  }
  // a shelf tag: the price per unit sold (per kilogram, per piece), the barcode small beneath
  const per = `/ ${escapeHtml(product.unit_kh)} · ${escapeHtml(product.unit_en)}`;
  return `<div class="tag">${names}<div class="usd">${usd} <span class="per">${per}</span></div><div class="khr">${khr}</div><div class="foot">${bars}<span class="sku">${escapeHtml(product.sku)}</span></div></div>`;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:'Kantumruy Pro',sans-serif;color:#000}
.label,.tag{width:100%;height:100%;overflow:hidden;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;padding:1.5mm 2mm}
.kh,.en{max-width:100%;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;line-height:1.25}
.label .kh{font-size:8pt;font-weight:700}.label .en{font-size:7pt}
.label .bars{flex:1 1 auto;min-height:0;display:flex;align-items:center;justify-content:center;width:100%}
.bars svg{max-width:100%;max-height:100%;width:auto;height:auto}
.label .price{font-size:8pt}
.tag{align-items:stretch;text-align:left;border:0.3mm solid #000;justify-content:flex-start}
.tag .kh{font-size:1.5em;font-weight:700}.tag .en{font-size:1em}
.tag .usd{font-size:3.2em;font-weight:700;line-height:1.15}.tag .per{font-size:0.32em;font-weight:400}
.tag .khr{font-size:1.8em;font-weight:700}
.tag .foot{margin-top:auto;display:flex;align-items:flex-end;justify-content:space-between;gap:2mm;height:4.5em}
.tag .foot .bars{height:100%;max-width:70%;display:flex;align-items:flex-end}.tag .sku{font-size:0.7em}
`;

/** The labels on A4 sheets: one cell each, row by row, the first `skip` cells of the first sheet left empty. */
export async function sheetHtml(kind: LabelKind, sheet: LabelSheet, labels: LabelProduct[], skip: number) {
  const s = LABEL_SHEETS[sheet];
  const perPage = s.columns * s.rows;
  const cells = [...Array.from({ length: skip }, () => ''), ...labels.map((p) => labelHtml(kind, p))];
  const pages: string[] = [];
  for (let i = 0; i < cells.length; i += perPage) {
    const page = cells.slice(i, i + perPage).map((cell) => `<div class="cell">${cell}</div>`);
    pages.push(`<section class="sheet">${page.join('')}</section>`);
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>
${await fontFaces('Kantumruy Pro')}
@page{size:A4;margin:0}${STYLE}
.sheet{width:210mm;height:297mm;padding:${s.top}mm 0 0 ${s.left}mm;display:grid;grid-template-columns:repeat(${s.columns},${s.width}mm);grid-auto-rows:${s.height}mm;font-size:${((s.height / 57) * 10).toFixed(2)}pt;page-break-after:always;overflow:hidden}
.sheet:last-child{page-break-after:auto}
</style></head><body>${pages.join('')}</body></html>`;
}

/** A roll printer's dots a millimetre (203 dpi, both paper widths), over CSS pixels a millimetre. */
const DOTS_PER_MM = 8;
const ZOOM = DOTS_PER_MM / (96 / 25.4);

/**
 * Labels one under another at a roll's width, `dots` pixels wide (one a printer dot), drawn in
 * millimetres as on the paper: a barcode label 30 mm long, a shelf tag 40 mm, a dashed line between.
 */
export async function rollHtml(kind: LabelKind, labels: LabelProduct[], dots: number) {
  const width = dots / DOTS_PER_MM;
  const height = kind === 'tag' ? 40 : 30;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
${await fontFaces('Kantumruy Pro')}
${STYLE}
html{zoom:${ZOOM.toFixed(4)}}body{width:${width}mm}
.cell{width:${width}mm;height:${height}mm;border-bottom:0.3mm dashed #000;font-size:${((height / 57) * 10).toFixed(2)}pt}
</style></head><body>${labels.map((p) => `<div class="cell">${labelHtml(kind, p)}</div>`).join('')}</body></html>`;
}

/** Each product as many times as asked, in the order asked. */
export async function labelsOf(db: Db, actor: Actor, input: Pick<Input, 'items' | 'kind'>): Promise<LabelProduct[]> {
  const products = new Map((await productsOf(db, actor, input)).map((p) => [p.id, p]));
  return input.items.flatMap((item) => Array.from({ length: item.quantity }, () => products.get(item.product_id)!));
}

/** The cells a sheet has (a `skip` beyond them is refused on its field). */
export function cellsOf(sheet: LabelSheet): number {
  return LABEL_SHEETS[sheet].columns * LABEL_SHEETS[sheet].rows;
}

/**
 * Products whose selling price changed since a day (the audit trail's `product.price` lines, written
 * in the change's transaction) or that were added since, one tag each, newest change first.
 */
export async function priceChangesSince(db: Db, since: string): Promise<LabelItems> {
  // a day on the depots' clock (Cambodia, no daylight saving)
  const from = new Date(`${since}T00:00:00+07:00`).toISOString();
  const changed = await db
    .selectFrom('audit_log')
    .select(['subject_id'])
    .where('action', '=', 'product.price')
    .where('subject_type', '=', 'product')
    .where('created_at', '>=', from)
    .orderBy('id', 'desc')
    .limit(5000)
    .execute();
  const added = await db
    .selectFrom('products')
    .select('id')
    .where('created_at', '>=', from)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(5000)
    .execute();
  const ids = [...new Set([...changed.map((r) => Number(r.subject_id)), ...added.map((r) => Number(r.id))])].slice(
    0,
    200,
  );
  if (ids.length === 0) return { items: [] };
  const rows = await db
    .selectFrom('products')
    .select(['id', 'name_en', 'name_kh', 'sku', 'barcode'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return {
    items: ids.flatMap((id) => {
      const row = byId.get(id);
      return row
        ? [
            {
              product_id: id,
              name_en: row.name_en,
              name_kh: row.name_kh,
              sku: row.sku,
              barcode: row.barcode,
              quantity: 1,
            },
          ]
        : [];
    }),
  };
}
