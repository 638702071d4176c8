import {
  PURCHASE_STATUSES,
  type PurchaseDetail,
  type PurchaseStatus,
  purchaseTotals,
  todayInCambodia,
} from '@depot/contracts';
import { z } from 'zod';
import { type DocumentLine, savedLine, storedLine } from '../../components/lines.tsx';
import { draftStore, type DraftState as FormDraftState } from '../../kit/draft.ts';

/**
 * A purchase being written: what the form holds (money as typed: cents, or the text that is not an
 * amount yet), carried to the review in the router's state and in sessionStorage, so a reload of
 * either page keeps it.
 */
export interface DraftLine extends DocumentLine {
  unit_price_cents: number | string | null;
  lot: string;
  expiry_date: string | null;
}

export interface PurchaseDraft {
  /** The purchase being changed; null for a new one. */
  id: number | null;
  number: string | null;
  status: PurchaseStatus | null;
  /** The server's abilities refuse a change (something arrived): the form shows it read-only. */
  locked: boolean;
  supplier_id: number | null;
  store_id: number | null;
  purchase_date: string;
  notes: string;
  shipping_cents: number | string | null;
  tax_cents: number | string | null;
  ordered: boolean;
  lines: DraftLine[];
}

export function emptyDraft(storeId: number | null = null): PurchaseDraft {
  return {
    id: null,
    number: null,
    status: null,
    locked: false,
    supplier_id: null,
    store_id: storeId,
    purchase_date: todayInCambodia(),
    notes: '',
    shipping_cents: 0,
    tax_cents: 0,
    ordered: true,
    lines: [],
  };
}

/** A saved purchase as the form shows it (while nothing has been received it may still change). */
export function draftOf(detail: PurchaseDetail): PurchaseDraft {
  return {
    id: detail.id,
    number: detail.number,
    status: detail.status,
    locked: detail.abilities.update !== true,
    supplier_id: detail.supplier_id,
    store_id: detail.store_id,
    purchase_date: detail.purchase_date,
    notes: detail.notes ?? '',
    shipping_cents: detail.shipping_cents,
    tax_cents: detail.tax_cents,
    ordered: detail.status !== 'draft',
    lines: detail.items.map((item) => ({
      ...savedLine(item),
      unit_price_cents: item.unit_price_cents,
      lot: item.lot ?? '',
      expiry_date: item.expiry_date,
    })),
  };
}

/** What the API takes (`purchaseInput` checks it, in the browser and again on the server). */
export function draftBody(draft: PurchaseDraft) {
  return {
    supplier_id: draft.supplier_id,
    store_id: draft.store_id,
    purchase_date: draft.purchase_date,
    notes: draft.notes,
    shipping_cents: draft.shipping_cents ?? 0,
    tax_cents: draft.tax_cents ?? 0,
    ordered: draft.ordered,
    items: draft.lines.map((line) => ({
      product_id: line.product.id,
      unit_id: line.unit?.id ?? null,
      quantity: line.quantity,
      unit_price_cents: line.unit_price_cents,
      lot: line.lot,
      expiry_date: line.expiry_date,
    })),
  };
}

/** Whole cents, or 0 while what is typed is not an amount yet. */
function cents(value: number | string | null): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The money as the server will count it: `purchaseTotals` from the contracts, never floats. */
export function draftTotals(draft: PurchaseDraft) {
  const shipping = cents(draft.shipping_cents);
  const tax = cents(draft.tax_cents);
  const totals = purchaseTotals(
    draft.lines.map((line) => ({
      quantity: typeof line.quantity === 'number' && Number.isSafeInteger(line.quantity) ? line.quantity : 0,
      unit_price_cents: cents(line.unit_price_cents),
    })),
    shipping,
    tax,
  );
  return { ...totals, shipping_cents: shipping, tax_cents: tax };
}

const money = z.union([z.number(), z.string()]).nullable();
const stored = z.object({
  id: z.number().nullable(),
  number: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES).nullable(),
  locked: z.boolean().default(false),
  supplier_id: z.number().nullable(),
  store_id: z.number().nullable(),
  purchase_date: z.string(),
  notes: z.string(),
  shipping_cents: money,
  tax_cents: money,
  ordered: z.boolean(),
  lines: z.array(storedLine.extend({ unit_price_cents: money, lot: z.string(), expiry_date: z.string().nullable() })),
});

/** The purchase's draft between the form and the review. */
export const purchaseDrafts = draftStore<PurchaseDraft>('depot.purchase_draft', stored);
export const saveDraft = purchaseDrafts.save;
export const clearDraft = purchaseDrafts.clear;

/** The router state between the form and the review. */
export type DraftState = FormDraftState<PurchaseDraft>;
export const draftState = purchaseDrafts.state;
