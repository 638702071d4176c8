import type { ComboDetail, RecordStatus } from '@depot/contracts';
import { z } from 'zod';
import { type DocumentLine, savedLine, storedLine } from '../../components/lines.tsx';
import { type DraftState, draftStore } from '../../kit/draft.ts';

/**
 * A combo being written: the form's values (money as typed), carried to the review in the router's
 * state and in sessionStorage (as a purchase's draft is), so a reload of either page keeps it.
 */
export type ComboLine = DocumentLine;

export interface ComboDraft {
  /** The combo being changed; null for a new one. */
  id: number | null;
  name_en: string;
  name_kh: string;
  description: string;
  sku: string;
  barcode: string;
  selling_price_cents: number | string | null;
  status: RecordStatus;
  lines: ComboLine[];
}

export function emptyCombo(): ComboDraft {
  return {
    id: null,
    name_en: '',
    name_kh: '',
    description: '',
    sku: '',
    barcode: '',
    selling_price_cents: null,
    status: 'active',
    lines: [],
  };
}

export function comboDraftOf(detail: ComboDetail): ComboDraft {
  return {
    id: detail.id,
    name_en: detail.name_en,
    name_kh: detail.name_kh,
    description: detail.description ?? '',
    sku: detail.sku,
    barcode: detail.barcode ?? '',
    selling_price_cents: detail.selling_price_cents,
    status: detail.status,
    lines: detail.items.map(savedLine),
  };
}

/** What the API takes (`comboInput` checks it, here and again on the server). */
export function comboBody(draft: ComboDraft) {
  return {
    name_en: draft.name_en,
    name_kh: draft.name_kh,
    description: draft.description,
    sku: draft.sku,
    barcode: draft.barcode,
    selling_price_cents: draft.selling_price_cents,
    status: draft.status,
    items: draft.lines.map((line) => ({
      product_id: line.product.id,
      unit_id: line.unit?.id ?? null,
      quantity: line.quantity,
    })),
  };
}

const stored = z.object({
  id: z.number().nullable(),
  name_en: z.string(),
  name_kh: z.string(),
  description: z.string(),
  sku: z.string(),
  barcode: z.string(),
  selling_price_cents: z.union([z.number(), z.string()]).nullable(),
  status: z.enum(['active', 'inactive']),
  lines: z.array(storedLine),
});

/** The combo's draft between the form and the review. */
export const comboDrafts = draftStore<ComboDraft>('depot.combo_draft', stored);
export const saveComboDraft = comboDrafts.save;
export const clearComboDraft = comboDrafts.clear;

/** The router state between the form and the review. */
export type ComboState = DraftState<ComboDraft>;
export const comboState = comboDrafts.state;
