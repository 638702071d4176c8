import { z } from 'zod';
import { DEFAULT_EXCHANGE_RATE_KHR, DEFAULT_KHR_ROUNDING_STEP, KHR_ROUNDING_STEPS } from './money.ts';

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/** System settings (spec sections 1 and 3). The public part is what the login page needs. */
export const publicSettings = z.object({
  /** The system title in English; `system_title_kh` is the Khmer pages' (titleOf picks by locale). */
  system_title: z.string().min(1).max(100),
  system_title_kh: z.string().min(1).max(100),
  font_family: z.string().min(1).max(100),
  footer_text: z.string().max(200),
  logo_url: z.string().max(500).nullable(),
  favicon_url: z.string().max(500).nullable(),
  primary_color: hexColour,
  secondary_color: hexColour,
  background_color: hexColour,
  /** Whether staff may switch the interface to dark mode. */
  dark_mode: z.boolean(),
  /** Khmer digits (០១២…) for every figure on Khmer pages (numerals.ts); typing takes both. */
  khmer_numerals: z.boolean(),
  /** The business's details printed on receipts and tax invoices (empty: the sale's store's). */
  store_name: z.string().max(100),
  store_address: z.string().max(255),
  store_phone: z.string().max(30),
  vat_number: z.string().max(30),
});
export type PublicSettings = z.infer<typeof publicSettings>;

/** Fonts bundled with the web app (Debian's Chromium has no Khmer system font). */
export const BUNDLED_FONTS = ['Kantumruy Pro', 'Battambang', 'Noto Sans Khmer', 'Hanuman'] as const;
export type BundledFont = (typeof BUNDLED_FONTS)[number];

export const DEFAULT_SETTINGS: PublicSettings = {
  system_title: 'Sales Management System',
  system_title_kh: 'ប្រព័ន្ធគ្រប់គ្រងការលក់',
  font_family: 'Kantumruy Pro',
  footer_text: '© Depot',
  logo_url: null,
  favicon_url: null,
  primary_color: '#15803d',
  secondary_color: '#2563eb',
  background_color: '#f4f7f5',
  dark_mode: true,
  khmer_numerals: false,
  store_name: '',
  store_address: '',
  store_phone: '',
  vat_number: '',
};

export const publicSettingsResponse = z.object({ data: publicSettings });

/** The title a page shows: the Khmer title on Khmer pages, the English one on English pages. */
export function titleOf(settings: Pick<PublicSettings, 'system_title' | 'system_title_kh'>, locale: 'kh' | 'en') {
  return locale === 'kh' ? settings.system_title_kh || settings.system_title : settings.system_title;
}

const settingText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v ?? '');

/**
 * `PUT /api/settings` (administrators): everything but the logo and the favicon, which are
 * uploaded (`POST /api/settings/logo`, `/api/settings/favicon`).
 */
export const settingsInput = z.object({
  system_title: z.string().trim().min(1).max(100),
  system_title_kh: z.string().trim().min(1).max(100),
  font_family: z.enum(BUNDLED_FONTS),
  footer_text: settingText(200),
  primary_color: hexColour,
  secondary_color: hexColour,
  background_color: hexColour,
  dark_mode: z.boolean(),
  /** Left out: unchanged (clients older than the setting). */
  khmer_numerals: z.boolean().optional(),
  store_name: settingText(100),
  store_address: settingText(255),
  store_phone: settingText(30),
  vat_number: settingText(30),
});
export type SettingsInput = z.input<typeof settingsInput>;

/** The two pictures of the settings, each uploaded on its own. */
export const SETTINGS_IMAGES = ['logo', 'favicon'] as const;
export type SettingsImage = (typeof SETTINGS_IMAGES)[number];

/** Settings the server uses for prices: riel per dollar and the riel rounding step. */
export const businessSettings = z.object({
  exchange_rate_khr: z.number().int().min(1).max(100_000),
  khr_rounding_step: z.literal(KHR_ROUNDING_STEPS),
});
export type BusinessSettings = z.infer<typeof businessSettings>;
export const DEFAULT_BUSINESS_SETTINGS: BusinessSettings = {
  exchange_rate_khr: DEFAULT_EXCHANGE_RATE_KHR,
  khr_rounding_step: DEFAULT_KHR_ROUNDING_STEP,
};
