import {
  businessSettings,
  type CurrentRates,
  DEFAULT_BUSINESS_SETTINGS,
  DEFAULT_SALE_SETTINGS,
  type ExchangeRate,
  type exchangeRateInput,
  isRateStale,
  type SaleRates,
  type SaleSettings,
  saleSettings,
  type saleSettingsInput,
} from '@depot/contracts';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { type AuditWho, changes, recordAudit } from '../audit/audit.ts';
import { insertRate, newestRate, rateHistory, readSettings, saleRateRow, writeSettings } from './rates.repository.ts';

const SALE_KEYS = Object.keys(DEFAULT_SALE_SETTINGS) as (keyof SaleSettings)[];

/** The sale settings; a stored value that no longer fits its schema reads as its default. */
export async function readSaleSettings(db: Db): Promise<SaleSettings> {
  const stored = await readSettings(db, SALE_KEYS);
  const result: SaleSettings = { ...DEFAULT_SALE_SETTINGS };
  for (const key of SALE_KEYS) {
    const field = saleSettings.shape[key].safeParse(stored[key]);
    if (field.success) Object.assign(result, { [key]: field.data });
  }
  return result;
}

/** The rate of the settings (what products' riel prices follow): the rate before any was entered. */
async function settingsRate(db: Db): Promise<number> {
  const stored = await readSettings(db, ['exchange_rate_khr']);
  const rate = businessSettings.shape.exchange_rate_khr.safeParse(stored.exchange_rate_khr);
  return rate.success ? rate.data : DEFAULT_BUSINESS_SETTINGS.exchange_rate_khr;
}

/** What a till needs to sell: the current rates, the riel step, VAT, and whether the rate is stale. */
export async function currentRates(db: Db, at: Date = new Date()): Promise<CurrentRates> {
  // one after the other: `db` may be the caller's transaction (the orders module's)
  const rate = await newestRate(db);
  const settings = await readSaleSettings(db);
  const updatedAt = rate?.created_at ?? null;
  return {
    rate_khr: rate?.rate_khr ?? (await settingsRate(db)),
    rate_in_khr: rate?.rate_in_khr ?? null,
    rate_out_khr: rate?.rate_out_khr ?? null,
    khr_step: settings.khr_rounding_step,
    vat_rate_bp: settings.vat_rate_bp,
    stale_after_hours: settings.stale_after_hours,
    updated_at: updatedAt,
    updated_by_name: rate?.created_by_name ?? null,
    stale: isRateStale(updatedAt, settings.stale_after_hours, at),
    receipt_title: settings.receipt_title,
    receipt_footer: settings.receipt_footer,
  };
}

/**
 * For the orders module: the rates a sale is priced and settled with now (pricing.ts `Rates`:
 * riel per dollar, the rates for riel received and given, the riel step) and the VAT rate.
 */
export async function saleRates(db: Db): Promise<SaleRates> {
  // one query, not currentRates's three: read the same way (a stored value that no longer fits its
  // schema reads as its default; before any rate, the settings' rate)
  const row = await saleRateRow(db);
  const stored = (text: string | null) => {
    try {
      return text === null ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const setting = <K extends 'khr_rounding_step' | 'vat_rate_bp'>(key: K): SaleSettings[K] => {
    const field = saleSettings.shape[key].safeParse(stored(row[key]));
    return field.success ? (field.data as SaleSettings[K]) : DEFAULT_SALE_SETTINGS[key];
  };
  const fallback = businessSettings.shape.exchange_rate_khr.safeParse(stored(row.exchange_rate_khr));
  return {
    rate_khr: row.rate_khr ?? (fallback.success ? fallback.data : DEFAULT_BUSINESS_SETTINGS.exchange_rate_khr),
    rate_in_khr: row.rate_in_khr,
    rate_out_khr: row.rate_out_khr,
    khr_step: setting('khr_rounding_step'),
    vat_rate_bp: setting('vat_rate_bp'),
  };
}

export function rateService(db: Db) {
  return {
    current: () => currentRates(db),
    history: (page: { page: number; per_page: number }) => rateHistory(db, page),

    /**
     * A new current rate, kept in the history; the settings' `exchange_rate_khr` follows in the
     * same transaction, so products' riel prices follow it.
     */
    record(input: z.output<typeof exchangeRateInput>, userId: number, who?: AuditWho): Promise<ExchangeRate> {
      return transaction(db, async (trx) => {
        const at = now();
        const before = await currentRates(trx);
        await recordAudit(trx, who ?? { userId }, {
          action: 'exchange_rate.changed',
          subject: { type: 'exchange_rate', id: null },
          before,
          after: input,
        });
        const rate = await insertRate(trx, { ...input, created_by: userId, created_at: at });
        await writeSettings(trx, { exchange_rate_khr: input.rate_khr }, at);
        emit(
          trx,
          event('ExchangeRateChanged', {
            rate_khr: input.rate_khr,
            rate_in_khr: input.rate_in_khr ?? null,
            rate_out_khr: input.rate_out_khr ?? null,
          }),
        );
        return rate;
      });
    },

    saleSettings: () => readSaleSettings(db),

    /** Replaces the sale settings; `khr_rounding_step` is also the step of products' riel prices. */
    async updateSaleSettings(input: z.output<typeof saleSettingsInput>, who?: AuditWho): Promise<SaleSettings> {
      await transaction(db, async (trx) => {
        const before = await readSaleSettings(trx);
        // a setting left out (an older client's form) stays as it is
        const values = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
        const diff = changes(before as Record<string, unknown>, values);
        await writeSettings(trx, values, now());
        if (diff.changed && who) {
          await recordAudit(trx, who, { action: 'settings.sale', before: diff.before, after: diff.after });
        }
        emit(trx, event('SettingsChanged', { keys: Object.keys(values) }));
      });
      return readSaleSettings(db);
    },
  };
}

export type RateService = ReturnType<typeof rateService>;
