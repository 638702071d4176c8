import { z } from 'zod';
import { DEFAULT_EXCHANGE_RATE_KHR, DEFAULT_KHR_ROUNDING_STEP, KHR_ROUNDING_STEPS } from './money.ts';

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/** System settings (spec sections 1 and 3). The public part is what the login page needs. */
export const publicSettings = z.object({
  system_title: z.string().min(1).max(100),
  font_family: z.string().min(1).max(100),
  footer_text: z.string().max(200),
  logo_url: z.string().max(500).nullable(),
  favicon_url: z.string().max(500).nullable(),
  primary_color: hexColour,
  secondary_color: hexColour,
  background_color: hexColour,
  /** Whether staff may switch the interface to dark mode. */
  dark_mode: z.boolean(),
});
export type PublicSettings = z.infer<typeof publicSettings>;

/** Fonts bundled with the web app (Debian's Chromium has no Khmer system font). */
export const BUNDLED_FONTS = ['Kantumruy Pro'] as const;

export const DEFAULT_SETTINGS: PublicSettings = {
  system_title: 'Sales Management System',
  font_family: 'Kantumruy Pro',
  footer_text: '© Depot',
  logo_url: null,
  favicon_url: null,
  primary_color: '#16a34a',
  secondary_color: '#3b82f6',
  background_color: '#f4f7f5',
  dark_mode: true,
};

export const publicSettingsResponse = z.object({ data: publicSettings });

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
