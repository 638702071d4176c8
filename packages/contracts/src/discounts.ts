import { z } from 'zod';
import { NAME_MAX, NAME_MIN_SHORT } from './constants.ts';
import { MAX_ID } from './ids.ts';
import { DISCOUNT_TYPES, type DiscountRule } from './pricing.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';

/**
 * Discounts (spec: type value, percentage or fixed, and an amount). The amount reads as
 * pricing.ts reads it: `percentage` in basis points (1500 = 15 %), `value` in cents off each unit
 * (or off the order), `fixed` the price in cents of each unit (or of the order). A discount is on
 * one product, on every product of a category, or on a whole order, from `starts_on` to `ends_on`
 * (both days included, either may be open).
 */
export const DISCOUNT_SCOPES = ['product', 'category', 'order'] as const;
export type DiscountScope = (typeof DISCOUNT_SCOPES)[number];

/** 100 % in basis points: the most a percentage discount takes. */
export const DISCOUNT_PERCENT_MAX_BP = 10_000;
/** The most a `value` or `fixed` amount may be: $1,000,000. */
export const DISCOUNT_AMOUNT_MAX_CENTS = 100_000_000;

const id = z.coerce.number().int().min(1).max(MAX_ID);
const optionalId = id.nullish().transform((v) => v ?? null);
const optionalDate = z.iso
  .date()
  .nullish()
  .or(z.literal(''))
  .transform((v) => (v ? v : null));

/**
 * Create and update. The product or category the scope names is required (422 on `product_id` or
 * `category_id`); the other is not stored. A percentage is 1 to 10000 basis points; a value or a
 * fixed price is whole cents from 0.
 */
export const discountInput = z
  .object({
    name: z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX),
    type: z.enum(DISCOUNT_TYPES),
    amount: z.number().int().min(0).max(DISCOUNT_AMOUNT_MAX_CENTS),
    scope: z.enum(DISCOUNT_SCOPES),
    product_id: optionalId,
    category_id: optionalId,
    starts_on: optionalDate,
    ends_on: optionalDate,
    status: z.enum(RECORD_STATUSES).default('active'),
  })
  .superRefine((d, ctx) => {
    const at = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], params: { message } });
    if (
      d.type === 'percentage' &&
      Number.isInteger(d.amount) &&
      d.amount >= 0 &&
      d.amount <= DISCOUNT_AMOUNT_MAX_CENTS &&
      (d.amount < 1 || d.amount > DISCOUNT_PERCENT_MAX_BP)
    ) {
      at('amount', 'validation.discount_percentage');
    }
    if (d.scope === 'product' && d.product_id == null) at('product_id', 'validation.required');
    if (d.scope === 'category' && d.category_id == null) at('category_id', 'validation.required');
    if (d.starts_on && d.ends_on && d.ends_on < d.starts_on) at('ends_on', 'validation.date_order');
  });
export type DiscountInput = z.input<typeof discountInput>;

export const discount = z.object({
  ...recordFields,
  name: z.string(),
  type: z.enum(DISCOUNT_TYPES),
  amount: z.number().int(),
  scope: z.enum(DISCOUNT_SCOPES),
  product_id: z.number().int().nullable(),
  product_name_en: z.string().nullable(),
  product_name_kh: z.string().nullable(),
  category_id: z.number().int().nullable(),
  category_name_en: z.string().nullable(),
  category_name_kh: z.string().nullable(),
  starts_on: z.string().nullable(),
  ends_on: z.string().nullable(),
  status: z.enum(RECORD_STATUSES),
});
export type Discount = z.infer<typeof discount>;

/** What a discount is checked against: a product line (its product and category) or the whole order. */
export type DiscountTarget = { product_id: number; category_id: number } | 'order';

/** The fields of a discount that decide where and when it applies. */
export type DiscountReach = Pick<
  Discount,
  'status' | 'scope' | 'product_id' | 'category_id' | 'starts_on' | 'ends_on'
> & {
  deleted_at?: string | null;
};

/** Live, active, and `today` (YYYY-MM-DD, the depot's day) within its dates, both ends included. */
export function discountActiveOn(discount: DiscountReach, today: string): boolean {
  if (discount.deleted_at) return false;
  if (discount.status !== 'active') return false;
  if (discount.starts_on && today < discount.starts_on) return false;
  if (discount.ends_on && today > discount.ends_on) return false;
  return true;
}

/**
 * Whether a discount applies to a line or to the order today: the till shows what applies, the
 * server checks what a till sends. A product discount applies to that product's lines, a category
 * discount to the lines of products of that category, an order discount to the order alone.
 */
export function discountApplies(discount: DiscountReach, target: DiscountTarget, today: string): boolean {
  if (!discountActiveOn(discount, today)) return false;
  if (target === 'order') return discount.scope === 'order';
  if (discount.scope === 'product') return discount.product_id === target.product_id;
  if (discount.scope === 'category') return discount.category_id === target.category_id;
  return false;
}

/** The rule pricing.ts applies (`priceCart`'s line or order discount). */
export function discountRule(discount: Pick<Discount, 'type' | 'amount'>): DiscountRule {
  return { type: discount.type, amount: discount.amount };
}
