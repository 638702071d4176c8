import { z } from 'zod';
import { NAME_MAX, NAME_MIN_SHORT } from './constants.ts';
import { customerCredit, customerCreditInput, supplierCredit, supplierCreditInput } from './credit.ts';
import { optionalPhone, optionalText } from './fields.ts';
import { MAX_ID } from './ids.ts';
import { storeKhqr, storeKhqrInput } from './khqr.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';

/**
 * Stores, customers and suppliers. Names: stores and suppliers 3 to 50 characters; customers 1 to
 * 50, because a Khmer given name can be two characters ("ដា"). Phone numbers are as staff type
 * them (digits, spaces, dashes, a leading +), 6 to 20 characters.
 */
const text = optionalText;
const phone = optionalPhone;
const villageId = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_ID)
  .nullish()
  .transform((v) => v ?? null);
const status = z.enum(RECORD_STATUSES).default('active');

/** Where a party is: its village and the path up to the province, for addresses and receipts. */
const location = {
  village_id: z.number().int().nullable(),
  location: z.string().nullable(),
  location_kh: z.string().nullable(),
};

export const storeInput = z
  .object({
    name: z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX),
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{2,30}$/),
    phone,
    address: text(255),
    village_id: villageId,
    status,
    ...storeKhqrInput,
  })
  // a Bakong account is whole or absent: the QR needs the account, the name and the city together
  .superRefine((input, ctx) => {
    const khqr = [input.khqr_account_id, input.khqr_merchant_name, input.khqr_merchant_city];
    if (khqr.some((v) => v !== null) || input.khqr_merchant_id !== null) {
      for (const field of ['khqr_account_id', 'khqr_merchant_name', 'khqr_merchant_city'] as const) {
        if (input[field] === null)
          ctx.addIssue({ code: 'custom', path: [field], params: { message: 'khqr.incomplete' } });
      }
    }
    if (input.khqr_merchant_id !== null && input.khqr_acquiring_bank === null) {
      ctx.addIssue({ code: 'custom', path: ['khqr_acquiring_bank'], params: { message: 'khqr.bank_needed' } });
    }
  });
export const store = z.object({
  ...recordFields,
  name: z.string(),
  code: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  ...location,
  status: z.enum(RECORD_STATUSES),
  users_count: z.number().int(),
  ...storeKhqr,
  /** What the reader may do to the store beyond stores.update: change its KHQR payee account (an administrator). */
  abilities: z.object({ payee: z.boolean() }).optional(),
});
export type Store = z.infer<typeof store>;

export const customerInput = z.object({
  name: z.string().trim().min(1).max(NAME_MAX),
  phone,
  address: text(255),
  shipping_address: text(255),
  /** The buyer's VAT number, printed on its tax invoices. */
  vat_number: text(30),
  village_id: villageId,
  status,
  ...customerCreditInput,
  /** The customer's group and so their price list; none: the base prices. */
  customer_group_id: villageId,
});
export const customer = z.object({
  ...recordFields,
  name: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  shipping_address: z.string().nullable(),
  vat_number: z.string().nullable(),
  ...location,
  status: z.enum(RECORD_STATUSES),
  /** The walk-in customer every sale starts with; it cannot be deleted. (SQLite answers 0/1.) */
  is_walk_in: z.coerce.boolean(),
  ...customerCredit,
  /** The customer's group; absent from older answers, read as none. */
  customer_group_id: z.number().int().nullable().default(null),
  customer_group_name_en: z.string().nullable().default(null),
  customer_group_name_kh: z.string().nullable().default(null),
});
export type Customer = z.infer<typeof customer>;

export const SUPPLIER_TYPES = ['company', 'individual'] as const;
export const supplierInput = z.object({
  name: z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX),
  type: z.enum(SUPPLIER_TYPES).default('company'),
  phone,
  address: text(255),
  shipping_address: text(255),
  village_id: villageId,
  status,
  ...supplierCreditInput,
});
export const supplier = z.object({
  ...recordFields,
  name: z.string(),
  type: z.enum(SUPPLIER_TYPES),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  shipping_address: z.string().nullable(),
  ...location,
  status: z.enum(RECORD_STATUSES),
  /** Items received from this supplier; counted from purchases once purchasing exists. */
  total_items: z.number().int(),
  ...supplierCredit,
});
export type Supplier = z.infer<typeof supplier>;

export const WALK_IN_CUSTOMER = { name_en: 'Walk-in customer', name_kh: 'អតិថិជនទូទៅ' } as const;

/**
 * A customer's name as a reader sees it. The walk-in customer's stored name (the seed's Khmer one,
 * or its English one) is a stable key shown in the reader's language: stored data and exports of
 * it stay as they are; a name an administrator gave it instead is shown as given.
 */
export function customerName<T extends string | null | undefined>(name: T, locale: 'en' | 'kh'): T | string {
  if (name === WALK_IN_CUSTOMER.name_kh || name === WALK_IN_CUSTOMER.name_en) return WALK_IN_CUSTOMER[`name_${locale}`];
  return name;
}
