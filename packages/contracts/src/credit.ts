import { z } from 'zod';
import { abilitiesOf } from './abilities.ts';
import { optionalText } from './fields.ts';
import { MAX_ID } from './ids.ts';
import { TENDER_METHODS } from './pricing.ts';
import { PAYMENT_METHODS, purchasePaymentInput } from './purchases.ts';

/**
 * Credit: what customers owe the depot and what the depot owes its suppliers.
 *
 * - A customer's credit limit is in US cents. `null`: not limited (a customer made before credit
 *   existed sells as before); `0`: nothing may be left unpaid; N: the customer may owe at most N.
 *   A sale leaving money unpaid that takes the customer's balance past the limit needs a manager
 *   (orders.approve, or a manager's approval at the till). Terms are days after the sale's date.
 * - A balance is what the documents say: confirmed orders' totals less what was paid on them
 *   (returns refunded in cash leave it as it was); a supplier's, its ordered and received
 *   purchases' totals less their payments. Voided orders and cancelled purchases are out.
 * - Ageing by days past due (due = document date + terms): current, 1–30, 31–60, 61–90, 90+.
 */
export const CREDIT_LIMIT_MAX_CENTS = 100_000_000_000;
export const PAYMENT_TERMS_MAX_DAYS = 365;

/** Days after the document's date; empty is 0 (due at once). */
const terms = z
  .number()
  .int()
  .min(0)
  .max(PAYMENT_TERMS_MAX_DAYS)
  .nullish()
  .transform((v) => v ?? 0);

/** The credit fields of a customer's form: the limit (null: not limited) and the terms. */
export const customerCreditInput = {
  credit_limit_cents: z
    .number()
    .int()
    .min(0)
    .max(CREDIT_LIMIT_MAX_CENTS)
    .nullish()
    .transform((v) => v ?? null),
  payment_terms_days: terms,
};
export const customerCredit = {
  credit_limit_cents: z.coerce.number().int().nullable(),
  payment_terms_days: z.coerce.number().int(),
};
export const supplierCreditInput = {
  payment_terms_days: terms,
};
export const supplierCredit = { payment_terms_days: z.coerce.number().int() };

export const AGEING_BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'd90_plus'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const ageing = z.object(
  Object.fromEntries(AGEING_BUCKETS.map((b) => [b, z.number().int()])) as Record<AgeingBucket, z.ZodNumber>,
);
export type Ageing = z.infer<typeof ageing>;

/** The bucket of a document this many days past its due date (0 or less: not yet due). */
export function ageingBucket(daysOverdue: number): AgeingBucket {
  if (daysOverdue <= 0) return 'current';
  if (daysOverdue <= 30) return 'd1_30';
  if (daysOverdue <= 60) return 'd31_60';
  if (daysOverdue <= 90) return 'd61_90';
  return 'd90_plus';
}

export function emptyAgeing(): Ageing {
  return { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 };
}

/** An order (or purchase) not paid in full: what is still due on it and how late it is. */
export const openDocument = z.object({
  id: z.number().int(),
  number: z.string(),
  store_id: z.number().int(),
  /** The document's local day (YYYY-MM-DD) and its due day. */
  date: z.string(),
  due_date: z.string(),
  total_cents: z.number().int(),
  paid_cents: z.number().int(),
  due_cents: z.number().int(),
  days_overdue: z.number().int(),
  bucket: z.enum(AGEING_BUCKETS),
});
export type OpenDocument = z.infer<typeof openDocument>;

/** A customer's or a supplier's account now. */
export const creditAccount = z.object({
  id: z.number().int(),
  name: z.string(),
  balance_cents: z.number().int(),
  /** Customers only (suppliers: null). */
  credit_limit_cents: z.number().int().nullable(),
  /** What may still be left unpaid before a manager is needed; null: not limited. */
  available_cents: z.number().int().nullable(),
  payment_terms_days: z.number().int(),
  ageing,
  open: z.array(openDocument),
});
export type CreditAccount = z.infer<typeof creditAccount>;

/**
 * A payment's allocation to open documents: to the chosen ones (else all), oldest first (by date,
 * then id), each taking what is due on it until the amount is spent. Exact: the shares add up to
 * the amount. The server and the web's preview use this one function.
 */
export function allocatePayment(
  open: readonly { id: number; date: string; due_cents: number }[],
  amountCents: number,
  chosen: readonly number[] | null = null,
): { id: number; amount_cents: number }[] {
  const targets = open
    .filter((d) => d.due_cents > 0 && (!chosen || chosen.includes(d.id)))
    .sort((a, b) => (a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1));
  const shares: { id: number; amount_cents: number }[] = [];
  let left = amountCents;
  for (const d of targets) {
    if (left <= 0) break;
    const take = Math.min(left, d.due_cents);
    shares.push({ id: d.id, amount_cents: take });
    left -= take;
  }
  return shares;
}

/** A document of customer payments has no actions yet: a payment is not edited (a later one corrects it). */
export const CUSTOMER_PAYMENT_ACTIONS = [] as const;
export type CustomerPaymentAction = (typeof CUSTOMER_PAYMENT_ACTIONS)[number];
export const customerPaymentAbilities = abilitiesOf(CUSTOMER_PAYMENT_ACTIONS);

const id = z.number().int().min(1).max(MAX_ID);

/**
 * A customer's payment on account: one tender (cash in dollars or riel, card, transfer, KHQR),
 * allocated oldest first to their open orders, or to the orders chosen. Riel is counted at today's
 * rate in (the till's conversion, rounded down); no change: at most what the orders owe.
 */
export const customerPaymentInput = z.object({
  store_id: id.nullish().transform((v) => v ?? null),
  method: z.enum(TENDER_METHODS),
  /** Riel for cash in riel, US cents for everything else. */
  amount: z.number().int().min(1).max(100_000_000_000),
  transaction_id: optionalText(100),
  note: optionalText(255),
  /** The orders to pay; absent or empty: the oldest open orders first. */
  order_ids: z
    .array(id)
    .max(200)
    .nullish()
    .transform((v) => (v?.length ? v : null)),
});
export type CustomerPaymentInput = z.input<typeof customerPaymentInput>;

export const customerPayment = z.object({
  id: z.number().int(),
  number: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  store_id: z.number().int(),
  method: z.enum(TENDER_METHODS),
  amount: z.number().int(),
  amount_cents: z.number().int(),
  exchange_rate_khr: z.number().int(),
  transaction_id: z.string().nullable(),
  note: z.string().nullable(),
  received_by: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  allocations: z.array(z.object({ order_id: z.number().int(), number: z.string(), amount_cents: z.number().int() })),
  abilities: customerPaymentAbilities,
});
export type CustomerPayment = z.infer<typeof customerPayment>;

/**
 * One payment to a supplier spread over its unpaid purchases (in the stores the payer covers):
 * oldest first, or only the purchases chosen, by the same `allocatePayment` as a customer's
 * payment on account. Each share is a purchase payment (same method, day, reference and note).
 * At most what the purchases owe: a surplus is refused, never kept as a credit.
 */
export const supplierPaymentInput = purchasePaymentInput.extend({
  /** The purchases to pay; absent or empty: the oldest unpaid purchases first. */
  purchase_ids: z
    .array(id)
    .max(200)
    .nullish()
    .transform((v) => (v?.length ? v : null)),
});
export type SupplierPaymentInput = z.input<typeof supplierPaymentInput>;

export const supplierPayment = z.object({
  supplier_id: z.number().int(),
  amount_cents: z.number().int(),
  method: z.enum(PAYMENT_METHODS),
  paid_at: z.string(),
  allocations: z.array(z.object({ purchase_id: z.number().int(), number: z.string(), amount_cents: z.number().int() })),
});
export type SupplierPayment = z.infer<typeof supplierPayment>;

export const STATEMENT_KINDS = ['sale', 'payment', 'return', 'refund', 'purchase'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** A statement's period: local days, both included. */
export const statementQuery = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
  })
  .refine((q) => q.from <= q.to, { path: ['to'], params: { message: 'report.range_order' } });

export const statementLine = z.object({
  /** When (an instant, ISO). */
  at: z.string(),
  kind: z.enum(STATEMENT_KINDS),
  number: z.string(),
  /** What the party came to owe (a sale, a refund handed back, a purchase). */
  debit_cents: z.number().int(),
  /** What settled it (a payment, goods returned). */
  credit_cents: z.number().int(),
  balance_cents: z.number().int(),
});
export type StatementLine = z.infer<typeof statementLine>;

export const statement = z.object({
  party: z.object({
    kind: z.enum(['customer', 'supplier']),
    id: z.number().int(),
    name: z.string(),
    phone: z.string().nullable(),
    address: z.string().nullable(),
  }),
  from: z.string(),
  to: z.string(),
  opening_cents: z.number().int(),
  lines: z.array(statementLine),
  totals: z.object({
    sales_cents: z.number().int(),
    payments_cents: z.number().int(),
    returns_cents: z.number().int(),
    refunds_cents: z.number().int(),
  }),
  closing_cents: z.number().int(),
});
export type Statement = z.infer<typeof statement>;

/** Receivables (customers) or payables (suppliers) now, with ageing, per party and in total. */
export const creditReport = z.object({
  rows: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      phone: z.string().nullable(),
      credit_limit_cents: z.number().int().nullable(),
      payment_terms_days: z.number().int(),
      balance_cents: z.number().int(),
      ageing,
    }),
  ),
  total_cents: z.number().int(),
  ageing,
});
export type CreditReport = z.infer<typeof creditReport>;
