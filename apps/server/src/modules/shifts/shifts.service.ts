import {
  type CashCount,
  type CashCurrency,
  cashDifference,
  countTotal,
  type DrawerMoves,
  differenceNeedsApproval,
  expectedCash,
  payOutNeedsApproval,
  type ShiftAction,
  type ShiftDetail,
  type ShiftSettings,
  shift,
  type shiftCloseInput,
  type shiftMoveInput,
  type shiftOpenInput,
  todayInCambodia,
} from '@depot/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { type DocumentDefinition, documentService } from '../../kit/document.ts';
import { findLive, type Read, type ResourceDefinition } from '../../kit/resource.ts';
import { type Actor, type Approver, assertStoreInput } from '../../policies/policy.ts';
import { payOutPolicy, seesExpected, shiftDifferencePolicy, shiftPolicy, shiftScope } from '../../policies/shifts.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import {
  attachOrder,
  drawerChange,
  drawerPayments,
  insertMovement,
  insertShift,
  movementTotals,
  openShiftAt,
  openShiftOf,
  shiftMovements,
  shiftRow,
  shiftRows,
  shiftSales,
  shiftTenders,
  updateShift,
} from './shifts.repository.ts';
import { readShiftSettings } from './shifts.settings.ts';

type OpenInput = z.output<typeof shiftOpenInput>;
type MoveInput = z.output<typeof shiftMoveInput>;
type CloseInput = z.output<typeof shiftCloseInput>;

/** A shift as its list query reads it (overnight is worked out after). */
type ShiftRow = Omit<Read<z.infer<typeof shift>>, 'overnight'>;

/** Still open after the Cambodian day it was opened on. */
export const isOvernight = (row: { status: string; opened_at: string }, at = new Date()) =>
  row.status === 'open' && todayInCambodia(new Date(row.opened_at)) < todayInCambodia(at);

/** A list row with what TypeScript works out: numbers from bigint columns, the overnight flag. */
function completeRow(row: ShiftRow): Read<z.infer<typeof shift>> {
  return {
    ...row,
    difference_usd_cents: row.difference_usd_cents === null ? null : Number(row.difference_usd_cents),
    difference_khr: row.difference_khr === null ? null : Number(row.difference_khr),
    overnight: isOvernight(row),
  };
}

/** The shifts list: one's own, or (shifts.approve) every shift of one's stores; open ones first. */
export const shifts: ResourceDefinition<'shifts', typeof shiftOpenInput, typeof shift, ShiftRow> = {
  table: 'shifts',
  path: '/api/shifts',
  resource: 'shifts',
  entity: 'entity.shift',
  input: z.object({}) as never,
  output: shift,
  routes: ['list'],
  policy: {
    scope: shiftScope,
    present: (actor, row) => ({ ...row, abilities: shiftPolicy.abilities(actor, row) }),
  },
  query: shiftRows,
  complete: async (_db, rows) => rows.map(completeRow),
  searchable: ['shifts.number', 'shifts.till'],
  sortable: { opened_at: 'shifts.opened_at', number: 'shifts.number', status: 'shifts.status' },
  defaultSort: '-opened_at',
  filters: {
    status: { column: 'shifts.status', schema: z.enum(['open', 'closed']) },
    store_id: { column: 'shifts.store_id', schema: z.coerce.number().int().min(1) },
    user_id: { column: 'shifts.user_id', schema: z.coerce.number().int().min(1) },
  },
};

const zeroMoves = (): DrawerMoves => ({ float: 0, cash_in: 0, change_out: 0, refunds: 0, pay_ins: 0, pay_outs: 0 });
type Moves = Record<CashCurrency, DrawerMoves>;

/**
 * What moved each drawer, from the records as they are: the float, the cash taken and handed back
 * while the shift was open by its cashier at its store (tenders, later payments, payments on
 * account, refunds: each `order_payments` row's `shift_id`, given by `drawerShift`), the change that
 * left it (`orders.change_shift_id`), its pay-ins and pay-outs. A closed shift's figures were frozen
 * at its close.
 */
export async function drawerMoves(
  db: Db,
  row: { id: number; float_usd_cents: number; float_khr: number; closed_at: string | null },
): Promise<Moves> {
  const moves: Moves = { usd: zeroMoves(), khr: zeroMoves() };
  moves.usd.float = Number(row.float_usd_cents);
  moves.khr.float = Number(row.float_khr);
  const payments = await drawerPayments(db, row.id, row.closed_at, CASH_METHODS);
  for (const p of payments) {
    const drawer = moves[p.method === 'cash_khr' ? 'khr' : 'usd'];
    if (p.kind === 'refund') drawer.refunds += Number(p.amount);
    else drawer.cash_in += Number(p.amount);
  }
  // the change given, as it left each drawer (the till says how it was handed back)
  const change = await drawerChange(db, row.id);
  moves.usd.change_out += Number(change?.usd ?? 0);
  moves.khr.change_out += Number(change?.khr ?? 0);
  const own = await movementTotals(db, row.id);
  for (const m of own) {
    const drawer = moves[m.currency === 'khr' ? 'khr' : 'usd'];
    if (m.kind === 'pay_in') drawer.pay_ins += Number(m.amount);
    else drawer.pay_outs += Number(m.amount);
  }
  return moves;
}

const parseCount = (text: string): CashCount => JSON.parse(text) as CashCount;

/** A shift's detail, before the actor's view of it (a blind close hides what is expected). */
async function shiftDetail(db: Db, id: number): Promise<Read<ShiftDetail>> {
  const head = await shifts.query(db).where('shifts.id', '=', id).executeTakeFirst();
  if (!head) throw notFound();
  const row = await shiftRow(db, id);
  const settings = await readShiftSettings(db);
  const moves: Moves = row.closing ? (JSON.parse(row.closing) as Moves) : await drawerMoves(db, row);
  const counted = { usd: row.counted_usd_cents, khr: row.counted_khr };
  const drawer = (currency: CashCurrency) => {
    const expected = expectedCash(moves[currency]);
    const count = counted[currency] === null ? null : Number(counted[currency]);
    return {
      ...moves[currency],
      expected,
      counted: count,
      difference: count === null ? null : cashDifference(expected, count),
    };
  };
  const sales = await shiftSales(db, id);
  const tenders = await shiftTenders(db, id);
  const movements = await shiftMovements(db, id);
  return {
    ...completeRow(head),
    note: row.note,
    close_note: row.close_note,
    float_count: parseCount(row.float_count),
    counted_count: row.counted_count ? parseCount(row.counted_count) : null,
    usd: drawer('usd'),
    khr: drawer('khr'),
    orders_count: Number(sales.n),
    sales_cents: Number(sales.total),
    movements: movements.map((m) => ({ ...m, amount: Number(m.amount) })),
    payments: tenders.map((t) => ({ method: t.method, amount: Number(t.amount) })),
    blind: settings.blind_close,
  };
}

/** A shift as a document (kit/document.ts): its list, policy, detail, and the actor's view of it. */
export const shiftDocument: DocumentDefinition<'shifts', Read<ShiftDetail>, ShiftAction> = {
  table: 'shifts',
  list: shifts,
  policy: shiftPolicy,
  detail: shiftDetail,
  // a blind close: until the count is in, a cashier sees none of the figures that would add up to
  // what the drawer should hold (the float, cash in, change, refunds, pay-ins and pay-outs, the
  // sales' total and tenders); the count and what it differs by come with the close
  present(actor, detail) {
    const blind = !seesExpected(actor, detail, detail.blind);
    if (!blind) return { ...detail, blind: false };
    const hide = (): ShiftDetail['usd'] => ({
      float: null,
      cash_in: null,
      change_out: null,
      refunds: null,
      pay_ins: null,
      pay_outs: null,
      expected: null,
      counted: null,
      difference: null,
    });
    return {
      ...detail,
      blind: true,
      float_count: null,
      usd: hide(),
      khr: hide(),
      sales_cents: null,
      movements: detail.movements.map((m) => ({ ...m, amount: null })),
      payments: [],
    };
  },
};

/** Each note counted must be one of the settings' notes of its currency, each once. */
function checkCount(count: CashCount, settings: ShiftSettings, field: string) {
  const allowed = { usd: settings.usd_denominations, khr: settings.khr_denominations };
  const problems: Record<string, { key: 'shift.denomination' | 'validation.unique' }[]> = {};
  for (const currency of ['usd', 'khr'] as const) {
    const seen = new Set<number>();
    count[currency].forEach((line, index) => {
      const at = `${field}.${currency}.${index}.value`;
      if (!allowed[currency].includes(line.value)) problems[at] = [{ key: 'shift.denomination' }];
      else if (seen.has(line.value)) problems[at] = [{ key: 'validation.unique' }];
      seen.add(line.value);
    });
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  // only what was counted is kept: notes counted zero times say nothing
  return {
    usd: count.usd.filter((line) => line.count > 0).sort((a, b) => b.value - a.value),
    khr: count.khr.filter((line) => line.count > 0).sort((a, b) => b.value - a.value),
  };
}

const tillKey = (storeId: number, till: string) => `${storeId}:${till.toLowerCase()}`;

/** The tenders that move a drawer. */
export const CASH_METHODS = ['cash_usd', 'cash_khr'] as const;
export const movesCash = (methods: readonly string[]) =>
  methods.some((m) => (CASH_METHODS as readonly string[]).includes(m));

/**
 * The one place money is given its drawer: every cash movement (a sale's tenders and change, a
 * later payment, a payment on account, a refund) belongs to the shift open by the user who handled
 * the cash, at the store where it moved; none open: in no drawer. With the setting `require_shift`,
 * what needs a shift without one is refused (422): a sale (`'sale'`), or whatever takes or gives
 * cash (`'cash'`); `null`, nothing is required (a card payment). Answers the shift's id, or null.
 */
export async function drawerShift(
  trx: Db,
  userId: number,
  storeId: number,
  needs: 'sale' | 'cash' | null,
): Promise<number | null> {
  const open = await openShiftOf(trx, userId, storeId);
  if (open) return open.id;
  if (needs && (await readShiftSettings(trx)).require_shift) {
    throw new AppError(422, needs === 'sale' ? 'shift.required' : 'shift.required_cash');
  }
  return null;
}

/**
 * The checkout's shift step (orders.service's `sell`): the sale belongs to its cashier's shift open
 * at its store, if any (`drawerShift`); with the setting `require_shift`, a sale without one is
 * refused (422). Answers the shift, the drawer of the sale's own tenders.
 */
export async function attachShift(trx: Db, actor: Actor, orderId: number, storeId: number): Promise<number | null> {
  const open = await drawerShift(trx, actor.userId, storeId, 'sale');
  if (open) await attachOrder(trx, orderId, open);
  return open;
}

export function shiftService(db: Db) {
  const documents = documentService(db, shiftDocument);

  return {
    show: (actor: Actor, id: number) => documents.show(actor, id),

    /** The actor's open shift (at any store), or null: the till and the dashboard ask. */
    async current(actor: Actor) {
      const open = await openShiftOf(db, actor.userId);
      return open ? documents.show(actor, open.id) : null;
    },

    /** A shift opened at a till with its float counted; one open shift per till and per cashier. */
    open(actor: Actor, input: OpenInput) {
      return documents.create(actor, async ({ trx, at }) => {
        const store = await findLive(trx, 'stores', input.store_id);
        if (!store) throw new FieldError({ store_id: [{ key: 'validation.exists' }] });
        if (store.status !== 'active') throw new FieldError({ store_id: [{ key: 'validation.store_inactive' }] });
        assertStoreInput(actor, 'store_id', input.store_id);
        const settings = await readShiftSettings(trx);
        const float = checkCount(input.float, settings, 'float');
        const mine = await openShiftOf(trx, actor.userId);
        if (mine) throw new FieldError({ till: [{ key: 'shift.user_open', params: { number: mine.number } }] });
        const key = tillKey(input.store_id, input.till);
        const taken = await openShiftAt(trx, key);
        if (taken) throw new FieldError({ till: [{ key: 'shift.till_open', params: { number: taken.number } }] });
        return insertShift(trx, {
          number: await nextDocumentNumber(trx, 'SH', todayInCambodia().slice(0, 4)),
          store_id: input.store_id,
          till: input.till,
          user_id: actor.userId,
          status: 'open',
          open_till: key,
          open_user: actor.userId,
          opened_at: at,
          note: input.note,
          float_count: JSON.stringify(float),
          float_usd_cents: countTotal(float.usd),
          float_khr: countTotal(float.khr),
          created_at: at,
          updated_at: at,
        });
      });
    },

    /**
     * A pay-in or a pay-out with its reason, in the audit trail; a pay-out cannot take more than the
     * drawer holds, and one that takes the shift's pay-outs to the threshold needs shifts.approve or
     * a manager's approval at the till (payOutPolicy).
     */
    move(actor: Actor, id: number, input: MoveInput, approver: Approver | null = null) {
      return documents.act(
        actor,
        id,
        'move',
        async ({ trx, at, row }) => {
          let approvedBy: number | null = null;
          if (input.kind === 'pay_out') {
            const moves = await drawerMoves(trx, row);
            const drawer = moves[input.currency];
            if (expectedCash(drawer) < input.amount) {
              throw new FieldError({ amount: [{ key: 'shift.short_drawer' }] });
            }
            const settings = await readShiftSettings(trx);
            const payOuts = drawer.pay_outs + input.amount;
            const threshold = input.currency === 'usd' ? settings.threshold_usd_cents : settings.threshold_khr;
            const money = (n: number) => (input.currency === 'usd' ? { usd: n } : { khr: n });
            ({ approvedBy } = payOutPolicy.authorize(
              actor,
              {
                ...row,
                over_threshold: payOutNeedsApproval(payOuts, input.currency, settings),
                why: { key: 'shift.pay_out_over', params: { amount: money(payOuts), threshold: money(threshold) } },
              },
              'pay_out',
              approver,
            ));
          }
          await insertMovement(trx, {
            shift_id: id,
            kind: input.kind,
            currency: input.currency,
            amount: input.amount,
            reason: input.reason,
            created_by: actor.userId,
            created_at: at,
          });
          await recordAudit(trx, auditWho(actor), {
            action: input.kind === 'pay_in' ? 'shift.pay_in' : 'shift.pay_out',
            subject: { type: 'shift', id },
            after: {
              currency: input.currency,
              amount: input.amount,
              reason: input.reason,
              approved_by: approvedBy,
            },
          });
        },
        approver,
      );
    },

    /**
     * The close: each currency counted by denomination; expected, counted and the difference kept,
     * with the figures that made the expected (frozen: later refunds of its sales are not its). A
     * difference beyond a threshold needs shifts.approve or a manager's approval at the till.
     */
    close(actor: Actor, id: number, input: CloseInput, approver: Approver | null) {
      return documents.act(
        actor,
        id,
        'close',
        async ({ trx, at, row }) => {
          const settings = await readShiftSettings(trx);
          const counted = checkCount(input.counted, settings, 'counted');
          const moves = await drawerMoves(trx, { ...row, closed_at: at });
          const expected = { usd: expectedCash(moves.usd), khr: expectedCash(moves.khr) };
          const total = { usd: countTotal(counted.usd), khr: countTotal(counted.khr) };
          const difference = {
            usd: cashDifference(expected.usd, total.usd),
            khr: cashDifference(expected.khr, total.khr),
          };
          const { approvedBy } = shiftDifferencePolicy.authorize(
            actor,
            { ...row, over_threshold: differenceNeedsApproval(difference, settings) },
            'accept',
            approver,
          );
          await updateShift(trx, id, {
            status: 'closed',
            open_till: null,
            open_user: null,
            closed_at: at,
            close_note: input.note,
            counted_count: JSON.stringify(counted),
            closing: JSON.stringify(moves),
            expected_usd_cents: expected.usd,
            expected_khr: expected.khr,
            counted_usd_cents: total.usd,
            counted_khr: total.khr,
            difference_usd_cents: difference.usd,
            difference_khr: difference.khr,
            closed_by: actor.userId,
            approved_by: approvedBy,
          });
          if (difference.usd !== 0 || difference.khr !== 0) {
            await recordAudit(trx, auditWho(actor), {
              action: 'shift.closed',
              subject: { type: 'shift', id },
              after: { expected, counted: total, difference, approved_by: approvedBy },
            });
          }
        },
        approver,
      );
    },
  };
}

export type ShiftService = ReturnType<typeof shiftService>;
