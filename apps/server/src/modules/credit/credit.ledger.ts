import {
  type Ageing,
  addDays,
  ageingBucket,
  type CreditReport,
  daysBetween,
  emptyAgeing,
  type OpenDocument,
  type StatementKind,
  todayInCambodia,
} from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { type Actor, inStores } from '../../policies/policy.ts';

/*
 * What customers owe and what the depot owes, read from the documents as they are (no running
 * balance that could drift): a customer's confirmed orders, their payments, returns and refunds; a
 * supplier's ordered and received purchases and their payments. Every figure is integer cents.
 */

/** A document that makes or settles a debt, as a statement shows it. */
export interface Entry {
  /** An instant (ISO) or a day (YYYY-MM-DD: purchases and their payments are dated by day). */
  at: string;
  /** The local day (Cambodia) it counts on. */
  day: string;
  kind: StatementKind;
  number: string;
  debit_cents: number;
  credit_cents: number;
  /** Ties on one instant: sales before payments, returns before refunds. */
  order: number;
}

/** The local day of an instant or a day. */
export const dayOf = (at: string) => (at.length > 10 ? todayInCambodia(new Date(at)) : at);

const KIND_ORDER: Record<StatementKind, number> = { sale: 0, purchase: 0, payment: 1, return: 2, refund: 3 };

/** A party's account: what it owes now, and which documents are still open. */
export interface Debt {
  id: number;
  number: string;
  store_id: number;
  date: string;
  total_cents: number;
  paid_cents: number;
}

/** Open documents with their due dates and lateness, oldest first; the balance and its ageing. */
export function ageDocuments(docs: readonly Debt[], terms: number, today = todayInCambodia()) {
  const ageing: Ageing = emptyAgeing();
  const open: OpenDocument[] = [];
  let balance = 0;
  for (const d of [...docs].sort((a, b) => (a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1))) {
    const due = d.total_cents - d.paid_cents;
    if (due <= 0) continue;
    const date = dayOf(d.date);
    const dueDate = addDays(date, terms);
    const late = daysBetween(dueDate, today);
    const bucket = ageingBucket(late);
    ageing[bucket] += due;
    balance += due;
    open.push({
      id: d.id,
      number: d.number,
      store_id: d.store_id,
      date,
      due_date: dueDate,
      total_cents: d.total_cents,
      paid_cents: d.paid_cents,
      due_cents: due,
      days_overdue: Math.max(0, late),
      bucket,
    });
  }
  return { balance, ageing, open };
}

/** A debt and whose it is (the customer or the supplier). */
export interface PartyDebt extends Debt {
  party_id: number;
}

/** Which documents: one party's or every party's, one store's or every store's, unpaid ones or all. */
export interface DebtFilter {
  partyId?: number;
  storeId?: number | null;
  unpaidOnly?: boolean;
}

/** Confirmed orders (those of the actor's stores; every store with no actor). */
export async function customerOrders(db: Db, actor: Actor | null, filter: DebtFilter = {}): Promise<PartyDebt[]> {
  let q = db
    .selectFrom('orders as o')
    .select(['o.id', 'o.number', 'o.store_id', 'o.order_date', 'o.total_cents', 'o.paid_cents', 'o.customer_id'])
    .where('o.status', '=', 'confirmed')
    .where('o.deleted_at', 'is', null);
  if (filter.partyId !== undefined) q = q.where('o.customer_id', '=', filter.partyId);
  if (filter.storeId) q = q.where('o.store_id', '=', filter.storeId);
  if (filter.unpaidOnly) q = q.whereRef('o.paid_cents', '<', 'o.total_cents');
  if (actor) q = inStores(q, actor, 'o.store_id');
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    store_id: r.store_id,
    date: r.order_date,
    total_cents: Number(r.total_cents),
    paid_cents: Number(r.paid_cents),
    party_id: r.customer_id,
  }));
}

/** What a customer owes now, every store together: the credit limit's measure. */
export async function customerBalance(db: Db, customerId: number): Promise<number> {
  const docs = await customerOrders(db, null, { partyId: customerId });
  return docs.reduce((sum, d) => sum + d.total_cents - d.paid_cents, 0);
}

/**
 * Each payment's share of what it settled. Cash may be more than was due (change was given) and
 * a riel total rounded by the step counts as paid: an order's payments, in order, settle up to what
 * the order records as paid, the last taking what is left. So an order's shares add up to its
 * `paid_cents` exactly.
 */
export function appliedShares(paidCents: number, amounts: readonly number[]): number[] {
  const shares: number[] = [];
  let before = 0;
  for (const [i, amount] of amounts.entries()) {
    const upTo = i === amounts.length - 1 ? paidCents : Math.min(paidCents, before + amount);
    const share = Math.max(0, upTo - before);
    shares.push(share);
    before += share;
  }
  return shares;
}

/** A customer's statement entries, every one (sales, payments, returns, refunds), in order. */
export async function customerEntries(db: Db, customerId: number, actor: Actor | null): Promise<Entry[]> {
  const orders = await customerOrders(db, actor, { partyId: customerId });
  if (!orders.length) return [];
  const ids = orders.map((o) => o.id);
  const byId = new Map(orders.map((o) => [o.id, o]));
  const entries: Entry[] = orders.map((o) => ({
    at: o.date,
    day: dayOf(o.date),
    kind: 'sale',
    number: o.number,
    debit_cents: o.total_cents,
    credit_cents: 0,
    order: KIND_ORDER.sale,
  }));
  const payments: {
    id: number;
    order_id: number;
    kind: string;
    amount_cents: number;
    created_at: string;
    cp: string | null;
  }[] = [];
  const returns: { order_id: number; refund_cents: number; created_at: string }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const p of await db
      .selectFrom('order_payments as op')
      .leftJoin('customer_payments as cp', 'cp.id', 'op.customer_payment_id')
      .select(['op.id', 'op.order_id', 'op.kind', 'op.amount_cents', 'op.created_at', 'cp.number as cp'])
      .where('op.order_id', 'in', chunk)
      .orderBy('op.id')
      .execute()) {
      payments.push({ ...p, amount_cents: Number(p.amount_cents) });
    }
    for (const r of await db
      .selectFrom('order_returns')
      .select(['order_id', 'refund_cents', 'created_at'])
      .where('order_id', 'in', chunk)
      .execute()) {
      returns.push({ ...r, refund_cents: Number(r.refund_cents) });
    }
  }
  // payments: each order's shares; a customer payment's shares are one line
  const onAccount = new Map<string, Entry>();
  for (const order of orders) {
    const mine = payments.filter((p) => p.order_id === order.id && p.kind === 'payment');
    const shares = appliedShares(
      order.paid_cents,
      mine.map((p) => p.amount_cents),
    );
    for (const [i, p] of mine.entries()) {
      if (p.cp) {
        const line = onAccount.get(p.cp);
        if (line) line.credit_cents += shares[i];
        else
          onAccount.set(p.cp, {
            at: p.created_at,
            day: dayOf(p.created_at),
            kind: 'payment',
            number: p.cp,
            debit_cents: 0,
            credit_cents: shares[i],
            order: KIND_ORDER.payment,
          });
      } else if (shares[i] > 0) {
        entries.push({
          at: p.created_at,
          day: dayOf(p.created_at),
          kind: 'payment',
          number: order.number,
          debit_cents: 0,
          credit_cents: shares[i],
          order: KIND_ORDER.payment,
        });
      }
    }
  }
  entries.push(...onAccount.values());
  for (const r of returns) {
    entries.push({
      at: r.created_at,
      day: dayOf(r.created_at),
      kind: 'return',
      number: byId.get(r.order_id)?.number ?? '',
      debit_cents: 0,
      credit_cents: r.refund_cents,
      order: KIND_ORDER.return,
    });
  }
  for (const p of payments.filter((p) => p.kind === 'refund')) {
    entries.push({
      at: p.created_at,
      day: dayOf(p.created_at),
      kind: 'refund',
      number: byId.get(p.order_id)?.number ?? '',
      debit_cents: p.amount_cents,
      credit_cents: 0,
      order: KIND_ORDER.refund,
    });
  }
  return sortEntries(entries);
}

function sortEntries(entries: Entry[]): Entry[] {
  return entries.sort((a, b) =>
    a.day !== b.day ? (a.day < b.day ? -1 : 1) : a.at !== b.at ? (a.at < b.at ? -1 : 1) : a.order - b.order,
  );
}

/** Ordered and received purchases (cancelled ones and drafts owe nothing). */
export async function supplierPurchases(db: Db, actor: Actor | null, filter: DebtFilter = {}): Promise<PartyDebt[]> {
  let q = db
    .selectFrom('purchases as pu')
    .select([
      'pu.id',
      'pu.number',
      'pu.store_id',
      'pu.purchase_date',
      'pu.grand_total_cents',
      'pu.paid_cents',
      'pu.supplier_id',
    ])
    .where('pu.status', 'not in', ['draft', 'cancelled'])
    .where('pu.deleted_at', 'is', null);
  if (filter.partyId !== undefined) q = q.where('pu.supplier_id', '=', filter.partyId);
  if (filter.storeId) q = q.where('pu.store_id', '=', filter.storeId);
  if (filter.unpaidOnly) q = q.whereRef('pu.paid_cents', '<', 'pu.grand_total_cents');
  if (actor) q = inStores(q, actor, 'pu.store_id');
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    store_id: r.store_id,
    date: r.purchase_date,
    total_cents: Number(r.grand_total_cents),
    paid_cents: Number(r.paid_cents),
    party_id: r.supplier_id,
  }));
}

/** A supplier's statement entries: purchases and the payments made on them. */
export async function supplierEntries(db: Db, supplierId: number, actor: Actor | null): Promise<Entry[]> {
  const purchases = await supplierPurchases(db, actor, { partyId: supplierId });
  if (!purchases.length) return [];
  const byId = new Map(purchases.map((p) => [p.id, p]));
  const entries: Entry[] = purchases.map((p) => ({
    at: p.date,
    day: p.date,
    kind: 'purchase',
    number: p.number,
    debit_cents: p.total_cents,
    credit_cents: 0,
    order: KIND_ORDER.purchase,
  }));
  const ids = [...byId.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    for (const p of await db
      .selectFrom('purchase_payments')
      .select(['purchase_id', 'amount_cents', 'paid_at'])
      .where('purchase_id', 'in', ids.slice(i, i + 500))
      .execute()) {
      entries.push({
        at: p.paid_at,
        day: dayOf(p.paid_at),
        kind: 'payment',
        number: byId.get(p.purchase_id)?.number ?? '',
        debit_cents: 0,
        credit_cents: Number(p.amount_cents),
        order: KIND_ORDER.payment,
      });
    }
  }
  return sortEntries(entries);
}

/** A period of a statement: the opening balance, the period's lines with the running balance, the totals. */
export function statementOf(entries: readonly Entry[], from: string, to: string) {
  let opening = 0;
  const lines = [];
  const totals = { sales_cents: 0, payments_cents: 0, returns_cents: 0, refunds_cents: 0 };
  let balance = 0;
  for (const e of entries) {
    if (e.day < from) {
      opening += e.debit_cents - e.credit_cents;
      continue;
    }
    if (e.day > to) continue;
    if (!lines.length) balance = opening;
    balance += e.debit_cents - e.credit_cents;
    if (e.kind === 'sale' || e.kind === 'purchase') totals.sales_cents += e.debit_cents;
    else if (e.kind === 'payment') totals.payments_cents += e.credit_cents;
    else if (e.kind === 'return') totals.returns_cents += e.credit_cents;
    else totals.refunds_cents += e.debit_cents;
    lines.push({
      at: e.at,
      kind: e.kind,
      number: e.number,
      debit_cents: e.debit_cents,
      credit_cents: e.credit_cents,
      balance_cents: balance,
    });
  }
  const closing = opening + totals.sales_cents + totals.refunds_cents - totals.payments_cents - totals.returns_cents;
  return { opening_cents: opening, lines, totals, closing_cents: closing };
}

/** The parties a credit report names, as read from their table. */
export interface CreditParty {
  id: number;
  name: string;
  phone: string | null;
  credit_limit_cents: number | string | bigint | null;
  payment_terms_days: number | string | bigint;
}

/** Receivables or payables now: each party's open documents aged, and the totals. */
export function creditReport(
  parties: readonly CreditParty[],
  docs: readonly PartyDebt[],
  today = todayInCambodia(),
): CreditReport {
  const total = emptyAgeing();
  let totalCents = 0;
  const rows: CreditReport['rows'] = [];
  for (const party of parties) {
    const terms = Number(party.payment_terms_days);
    const mine = docs.filter((d) => d.party_id === party.id);
    const { balance, ageing } = ageDocuments(mine, terms, today);
    if (balance === 0) continue;
    for (const key of Object.keys(total) as (keyof Ageing)[]) total[key] += ageing[key];
    totalCents += balance;
    rows.push({
      id: party.id,
      name: party.name,
      phone: party.phone,
      credit_limit_cents: party.credit_limit_cents === null ? null : Number(party.credit_limit_cents),
      payment_terms_days: terms,
      balance_cents: balance,
      ageing,
    });
  }
  rows.sort((a, b) => b.balance_cents - a.balance_cents);
  return { rows, total_cents: totalCents, ageing: total };
}
