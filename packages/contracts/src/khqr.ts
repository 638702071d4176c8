import { z } from 'zod';
import { formatUsdCents } from './money.ts';

/**
 * Bakong KHQR: Cambodia's EMVCo merchant-presented QR. A payload is a run of tag-length-value
 * fields (two-digit tag, two-digit length, the value) ending with a CRC; the layout and the limits
 * are those of the National Bank's `bakong-khqr` SDK, and the tests hold our payloads byte-equal to
 * its output. Written here rather than used from that package: it is CommonJS without types, pulls
 * axios, reads the clock itself, and the till and the server both need the same few lines.
 *
 * Only dynamic KHQR is made (tag 01 = 12): an amount, a bill number and an expiry, one per payment.
 */

export const KHQR_CURRENCIES = ['USD', 'KHR'] as const;
export type KhqrCurrency = (typeof KHQR_CURRENCIES)[number];
/** ISO 4217 numeric codes, tag 53. */
export const KHQR_CURRENCY_CODES: Record<KhqrCurrency, string> = { USD: '840', KHR: '116' };

/** Field limits of the SDK (`emv.INVALID_LENGTH`). */
export const KHQR_LIMITS = {
  account_id: 32,
  merchant_id: 32,
  acquiring_bank: 32,
  merchant_name: 25,
  merchant_city: 15,
  bill_number: 25,
  store_label: 25,
  terminal_label: 25,
  amount: 13,
} as const;

/** "Retail, not elsewhere classified": the SDK's default merchant category. */
export const KHQR_DEFAULT_MCC = '5999';

/** A Bakong account: `name@bank` (letters, digits, `_`, `.`, `-`), 32 characters at most. */
export const KHQR_ACCOUNT_PATTERN = /^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+$/;
/** EMV "ans" values: printable ASCII. Khmer names would go in tag 64, which Depot does not make. */
export const KHQR_TEXT_PATTERN = /^[\x20-\x7E]+$/;

export interface KhqrFields {
  /** Bakong account id, `name@bank`. */
  account_id: string;
  /** A merchant account (tag 30) has a merchant id and its acquiring bank; an individual (tag 29) has neither. */
  merchant_id: string | null;
  acquiring_bank: string | null;
  merchant_name: string;
  merchant_city: string;
  /** Merchant category code, four digits. */
  mcc: string;
  currency: KhqrCurrency;
  /** Minor units: US cents, whole riel. */
  amount: number;
  /** Tag 62: the bill number (the order's number), the store and the till. */
  bill_number: string | null;
  store_label: string | null;
  terminal_label: string | null;
  /** Tag 99: milliseconds since the epoch, 13 digits each. */
  created_at: number;
  expires_at: number;
}

export type KhqrProblem =
  | 'format'
  | 'crc'
  | 'length'
  | 'missing'
  | 'account'
  | 'amount'
  | 'currency'
  | 'text'
  | 'timestamp'
  | 'static';

/** A payload that cannot be made or read: which rule, and the field or tag it broke. */
export class KhqrError extends Error {
  constructor(
    readonly problem: KhqrProblem,
    readonly field: string,
    detail: string,
  ) {
    super(`KHQR ${field}: ${detail}`);
    this.name = 'KhqrError';
  }
}

/**
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final xor) over the
 * payload's bytes, as four upper-case hex digits. The payload is ASCII, so its characters are its bytes.
 */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function tlv(tag: string, value: string): string {
  if (value.length > 99) throw new KhqrError('length', tag, `value of ${value.length} characters`);
  return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

function text(field: keyof typeof KHQR_LIMITS, value: string): string {
  if (value.length === 0) throw new KhqrError('missing', field, 'empty');
  if (value.length > KHQR_LIMITS[field]) {
    throw new KhqrError('length', field, `at most ${KHQR_LIMITS[field]} characters`);
  }
  if (!KHQR_TEXT_PATTERN.test(value)) throw new KhqrError('text', field, 'printable Latin characters only');
  return value;
}

/** "12.50" for 1250 cents; "52000" for 52,000 riel (riel has no minor unit). */
export function khqrAmountText(currency: KhqrCurrency, amount: number): string {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new KhqrError('amount', 'amount', 'a whole amount above 0');
  const value = currency === 'USD' ? formatUsdCents(amount) : String(amount);
  if (value.length > KHQR_LIMITS.amount) throw new KhqrError('amount', 'amount', 'too large');
  return value;
}

function timestamp(field: string, value: number): string {
  const digits = String(value);
  if (!Number.isSafeInteger(value) || !/^\d{13}$/.test(digits)) {
    throw new KhqrError('timestamp', field, 'milliseconds since 1970, 13 digits');
  }
  return digits;
}

/** The payload of a dynamic KHQR, CRC included. Throws a KhqrError naming the field at fault. */
export function encodeKhqr(fields: KhqrFields): string {
  if (!KHQR_ACCOUNT_PATTERN.test(fields.account_id)) throw new KhqrError('account', 'account_id', 'name@bank');
  text('account_id', fields.account_id);
  if (!/^\d{4}$/.test(fields.mcc)) throw new KhqrError('format', 'mcc', 'four digits');
  if (fields.expires_at <= fields.created_at) throw new KhqrError('timestamp', 'expires_at', 'after created_at');

  const merchant = fields.merchant_id !== null;
  let account = tlv('00', fields.account_id);
  if (merchant) {
    if (fields.acquiring_bank === null) throw new KhqrError('missing', 'acquiring_bank', 'a merchant account names it');
    account += tlv('01', text('merchant_id', fields.merchant_id as string));
  }
  if (fields.acquiring_bank !== null) account += tlv('02', text('acquiring_bank', fields.acquiring_bank));

  let additional = '';
  if (fields.bill_number !== null) additional += tlv('01', text('bill_number', fields.bill_number));
  if (fields.store_label !== null) additional += tlv('03', text('store_label', fields.store_label));
  if (fields.terminal_label !== null) additional += tlv('07', text('terminal_label', fields.terminal_label));

  const body = [
    tlv('00', '01'),
    tlv('01', '12'),
    tlv(merchant ? '30' : '29', account),
    tlv('52', fields.mcc),
    tlv('53', KHQR_CURRENCY_CODES[fields.currency]),
    tlv('54', khqrAmountText(fields.currency, fields.amount)),
    tlv('58', 'KH'),
    tlv('59', text('merchant_name', fields.merchant_name)),
    tlv('60', text('merchant_city', fields.merchant_city)),
    additional ? tlv('62', additional) : '',
    tlv(
      '99',
      tlv('00', timestamp('created_at', fields.created_at)) + tlv('01', timestamp('expires_at', fields.expires_at)),
    ),
  ].join('');
  const withCrcTag = `${body}6304`;
  return withCrcTag + crc16(withCrcTag);
}

/** The tag-length-value fields of a string, in order; every length must fit exactly. */
function readTlv(source: string, where: string): [string, string][] {
  const out: [string, string][] = [];
  let at = 0;
  while (at < source.length) {
    const head = source.slice(at, at + 4);
    if (!/^\d{4}$/.test(head)) throw new KhqrError('format', where, `no tag and length at ${at}`);
    const tag = head.slice(0, 2);
    const length = Number(head.slice(2));
    const value = source.slice(at + 4, at + 4 + length);
    if (length === 0 || value.length !== length) {
      throw new KhqrError('length', `${where}${tag}`, `length ${length} does not fit`);
    }
    out.push([tag, value]);
    at += 4 + length;
  }
  return out;
}

function within(field: keyof typeof KHQR_LIMITS, value: string | undefined): string | null {
  if (value === undefined) return null;
  return text(field, value);
}

/**
 * Reads a payload back into its fields, checking the CRC first, then every length, then each
 * field's rules (the same as encoding). Throws a KhqrError naming what is wrong.
 */
export function decodeKhqr(payload: string): KhqrFields {
  if (!KHQR_TEXT_PATTERN.test(payload)) throw new KhqrError('text', 'payload', 'printable Latin characters only');
  const crcAt = payload.length - 8;
  if (crcAt < 0 || payload.slice(crcAt, crcAt + 4) !== '6304') throw new KhqrError('format', '63', 'no CRC at the end');
  if (crc16(payload.slice(0, crcAt + 4)) !== payload.slice(crcAt + 4)) {
    throw new KhqrError('crc', '63', 'the CRC does not match');
  }
  const tags = new Map<string, string>();
  for (const [tag, value] of readTlv(payload.slice(0, crcAt), '')) {
    if (tags.has(tag)) throw new KhqrError('format', tag, 'given twice');
    tags.set(tag, value);
  }
  const need = (tag: string) => {
    const value = tags.get(tag);
    if (value === undefined) throw new KhqrError('missing', tag, 'required');
    return value;
  };
  if (need('00') !== '01') throw new KhqrError('format', '00', 'payload format 01');
  if (need('01') !== '12') throw new KhqrError('static', '01', 'only dynamic KHQR (12) carries an amount');
  const merchant = tags.has('30');
  if (merchant === tags.has('29')) throw new KhqrError('missing', '29', 'one of tags 29 and 30');
  const account = new Map(readTlv(need(merchant ? '30' : '29'), merchant ? '30.' : '29.'));
  const accountId = account.get('00');
  if (!accountId || !KHQR_ACCOUNT_PATTERN.test(accountId)) throw new KhqrError('account', 'account_id', 'name@bank');
  text('account_id', accountId);
  const merchantId = merchant ? within('merchant_id', account.get('01')) : null;
  if (merchant && merchantId === null) throw new KhqrError('missing', 'merchant_id', 'a merchant account names it');
  const acquiringBank = within('acquiring_bank', account.get('02'));
  if (merchant && acquiringBank === null)
    throw new KhqrError('missing', 'acquiring_bank', 'a merchant account names it');

  const mcc = need('52');
  if (!/^\d{4}$/.test(mcc)) throw new KhqrError('format', 'mcc', 'four digits');
  const code = need('53');
  const currency = KHQR_CURRENCIES.find((c) => KHQR_CURRENCY_CODES[c] === code);
  if (!currency) throw new KhqrError('currency', '53', '840 (USD) or 116 (KHR)');
  const amountText = need('54');
  const pattern = currency === 'USD' ? /^(\d{1,10})\.(\d{2})$/ : /^(\d{1,13})$/;
  const match = pattern.exec(amountText);
  if (!match) throw new KhqrError('amount', 'amount', currency === 'USD' ? 'dollars with two decimals' : 'whole riel');
  const amount = currency === 'USD' ? Number(match[1]) * 100 + Number(match[2]) : Number(match[1]);
  // one way to write each amount: "012.50" and "0" are not what encoding makes
  if (khqrAmountText(currency, amount) !== amountText) throw new KhqrError('amount', 'amount', 'not canonical');
  if (need('58') !== 'KH') throw new KhqrError('format', '58', 'country KH');

  const additional = new Map(tags.has('62') ? readTlv(need('62'), '62.') : []);
  const times = new Map(readTlv(need('99'), '99.'));
  const stamp = (sub: string, field: string) => {
    const value = times.get(sub);
    if (!value || !/^\d{13}$/.test(value)) throw new KhqrError('timestamp', field, '13 digits');
    return Number(value);
  };
  const fields: KhqrFields = {
    account_id: accountId,
    merchant_id: merchantId,
    acquiring_bank: acquiringBank,
    merchant_name: text('merchant_name', need('59')),
    merchant_city: text('merchant_city', need('60')),
    mcc,
    currency,
    amount,
    bill_number: within('bill_number', additional.get('01')),
    store_label: within('store_label', additional.get('03')),
    terminal_label: within('terminal_label', additional.get('07')),
    created_at: stamp('00', 'created_at'),
    expires_at: stamp('01', 'expires_at'),
  };
  if (fields.expires_at <= fields.created_at) throw new KhqrError('timestamp', 'expires_at', 'after created_at');
  return fields;
}

// ─── a store's KHQR settings (the store form and the API) ─────────────────────────────────

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(KHQR_TEXT_PATTERN)
    .nullish()
    .or(z.literal(''))
    .transform((v) => (v ? v : null));

/**
 * A store's Bakong receiving account, all optional (a store without one takes no KHQR): the
 * account id `name@bank`, the merchant name and city the customer's bank app shows (Latin letters,
 * EMV limits), and for a merchant account its merchant id and acquiring bank.
 */
export const storeKhqrInput = {
  khqr_account_id: z
    .string()
    .trim()
    .max(KHQR_LIMITS.account_id)
    .regex(KHQR_ACCOUNT_PATTERN)
    .nullish()
    .or(z.literal(''))
    .transform((v) => (v ? v : null)),
  khqr_merchant_name: optionalText(KHQR_LIMITS.merchant_name),
  khqr_merchant_city: optionalText(KHQR_LIMITS.merchant_city),
  khqr_merchant_id: optionalText(KHQR_LIMITS.merchant_id),
  khqr_acquiring_bank: optionalText(KHQR_LIMITS.acquiring_bank),
};

export const storeKhqr = {
  khqr_account_id: z.string().nullable(),
  khqr_merchant_name: z.string().nullable(),
  khqr_merchant_city: z.string().nullable(),
  khqr_merchant_id: z.string().nullable(),
  khqr_acquiring_bank: z.string().nullable(),
};

/** A till's dynamic KHQR may be paid this long at most (minutes); the server's setting may be shorter. */
export const KHQR_TILL_MAX_MINUTES = 10;
/** A receipt's KHQR (an order still owed, a delivery): 15 minutes unless asked, a day at most. */
export const KHQR_RECEIPT_MINUTES = { default: 15, max: 1440 } as const;

/** The API's KHQR of an order: `POST /api/orders/{id}/khqr` makes one, `GET` reads the newest. */
export const khqrRequestInput = z.object({
  currency: z.enum(KHQR_CURRENCIES),
  /**
   * Where the QR is shown: on the till's screen (it expires after the server's setting, 10
   * minutes at most) or printed on a receipt (15 minutes unless `expires_in_minutes`, a day at most).
   */
  for: z.enum(['till', 'receipt']).default('till'),
  /** How long the QR may be paid, in minutes, within the limit of where it is shown. */
  expires_in_minutes: z.number().int().min(1).max(KHQR_RECEIPT_MINUTES.max).optional(),
});
export type KhqrRequestInput = z.input<typeof khqrRequestInput>;

export const khqrPayment = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  order_number: z.string(),
  payload: z.string(),
  /** The md5 of the payload: how Bakong finds the payment, and the tender's reference. */
  md5: z.string(),
  currency: z.enum(KHQR_CURRENCIES),
  /** In the currency's minor units: cents or riel. */
  amount: z.number().int(),
  /** What the QR pays of the order, in US cents. */
  amount_cents: z.number().int(),
  merchant_name: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  /** The bank's transaction hash once Bakong confirmed the payment. */
  paid_hash: z.string().nullable(),
  /** Made on the till's device without a connection (checked with Bakong once synced). */
  offline: z.boolean(),
  /** Whether the server can ask Bakong (BAKONG_API_TOKEN set); otherwise the cashier confirms by hand. */
  can_check: z.boolean(),
});
export type KhqrPayment = z.infer<typeof khqrPayment>;

/** The answer of `POST /api/orders/{id}/khqr/check`: paid or not yet, and the order as it is now. */
export const khqrCheck = z.object({
  paid: z.boolean(),
  hash: z.string().nullable(),
});
export type KhqrCheck = z.infer<typeof khqrCheck>;

/**
 * A bank transfer's reference as the customer's bank app shows it: the transaction's short hash
 * (its first 8 hexadecimal characters) or the whole hash (64).
 */
export const BANK_HASH_PATTERN = /^(?:[0-9a-f]{8}|[0-9a-f]{64})$/;

/** `POST /api/orders/{id}/khqr/transfer`: "paid by transfer", the transfer's hash and currency. */
export const khqrTransferInput = z.object({
  hash: z.string().trim().toLowerCase().regex(BANK_HASH_PATTERN),
  currency: z.enum(KHQR_CURRENCIES),
});
export type KhqrTransferInput = z.input<typeof khqrTransferInput>;

/** `POST /api/orders/{id}/khqr/offline`: a KHQR the till made on the device while offline. */
export const khqrOfflineInput = z.object({
  payload: z.string().min(20).max(512),
  md5: z.string().regex(/^[0-9a-f]{32}$/),
});
export type KhqrOfflineInput = z.input<typeof khqrOfflineInput>;

/** A KHQR sale of a shift that Bakong has not confirmed (made offline, or confirmed by hand). */
export const khqrUnchecked = z.object({
  order_id: z.number().int(),
  order_number: z.string(),
  md5: z.string(),
  currency: z.enum(KHQR_CURRENCIES),
  amount: z.number().int(),
  offline: z.boolean(),
  checked_at: z.string().nullable(),
  /** After a bulk check: confirmed by Bakong, not found there, or found paid to another account/amount. */
  result: z.enum(['confirmed', 'not_found', 'mismatch']).nullable(),
  hash: z.string().nullable(),
});
export type KhqrUnchecked = z.infer<typeof khqrUnchecked>;

/** A store without a Bakong account (fixtures, and the start of a new store's form). */
export const NO_KHQR = {
  khqr_account_id: null,
  khqr_merchant_name: null,
  khqr_merchant_city: null,
  khqr_merchant_id: null,
  khqr_acquiring_bank: null,
} as const;

/**
 * How the QR symbol is drawn (web) and checked (tests): error correction M (15 %) is what bank
 * apps read comfortably off a screen and off thermal paper, and keeps a KHQR at version 8-9.
 */
export const KHQR_QR_ERROR_CORRECTION = 'M';
