import {
  type CurrentRates,
  DISPLAY_LINES,
  type DisplayPhase,
  type DisplayState,
  IDLE_DISPLAY,
  type PricedCart,
  type RielRates,
  rielOf,
  type Settlement,
  settle,
} from '@depot/contracts';
import { useDisplayState } from '../../lib/customerDisplay.ts';
import { ratesOf } from '../rates/rates.tsx';
import { type Cart, unitPrice } from './cart.ts';
import { type TenderState, tendersOf, tendersValid } from './Tenders.tsx';

/**
 * What the customer's screen is told of a sale (lib/customerDisplay.ts): the lines with both
 * names, the totals as the till priced them, and, while paying, what was handed over and the change.
 */
export function displayOf(
  phase: Exclude<DisplayPhase, 'idle'>,
  cart: Cart,
  totals: PricedCart | null,
  rates: RielRates | undefined,
  settlement?: Pick<Settlement, 'tendered_cents' | 'due_cents' | 'due_khr' | 'change_cents' | 'change_khr'>,
): DisplayState | null {
  if (!totals || !rates) return null;
  if (cart.lines.length === 0) return IDLE_DISPLAY;
  return {
    phase,
    lines: cart.lines.slice(-DISPLAY_LINES).map((line, shown) => {
      const priced = totals.lines[Math.max(0, cart.lines.length - DISPLAY_LINES) + shown];
      return {
        name_kh: line.name_kh,
        name_en: line.name_en,
        quantity: line.quantity,
        unit_kh: line.unit?.name_kh ?? '',
        unit_en: line.unit?.name_en ?? '',
        unit_price_cents: unitPrice(line),
        amount_cents: priced ? priced.gross_cents - priced.line_discount_cents : 0,
      };
    }),
    earlier: Math.max(0, cart.lines.length - DISPLAY_LINES),
    discount_cents: totals.lines.reduce((sum, line) => sum + line.order_discount_cents, 0),
    tax_cents: totals.tax_cents,
    delivery_fee_cents: totals.delivery_fee_cents,
    total_cents: totals.total_cents,
    total_khr: rielOf(totals.total_cents, rates),
    tendered_cents: settlement?.tendered_cents ?? 0,
    due_cents: settlement?.due_cents ?? totals.total_cents,
    due_khr: settlement?.due_khr ?? rielOf(totals.total_cents, rates),
    change_cents: settlement?.change_cents ?? 0,
    change_khr: settlement?.change_khr ?? 0,
    khqr: null,
  };
}

/**
 * The review's state on the display: the tenders as typed (what was handed over, what is still
 * due, the change), then, once sold (or kept offline), the change the sale recorded.
 */
export function useReviewDisplay({
  cart,
  totals,
  rates,
  tenders,
  sold,
}: {
  cart: Cart;
  totals: PricedCart | null;
  rates: CurrentRates | undefined;
  tenders: TenderState;
  /** The sale as recorded (its paid amount and change), or true for a sale kept on the device. */
  sold: { paid_cents: number; change_cents: number; change_khr: number } | boolean;
}): void {
  const typed =
    totals && rates && tendersValid(tenders)
      ? settle(totals.total_cents, tendersOf(tenders), ratesOf(rates))
      : undefined;
  const recorded =
    typeof sold === 'object'
      ? {
          tendered_cents: sold.paid_cents + sold.change_cents,
          due_cents: 0,
          due_khr: 0,
          change_cents: sold.change_cents,
          change_khr: sold.change_khr,
        }
      : typed;
  useDisplayState(displayOf(sold ? 'done' : 'paying', cart, totals, rates, recorded));
}
