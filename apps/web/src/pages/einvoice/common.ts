import type { EInvoiceStatus, Locale } from '@depot/contracts';
import { translate } from '@depot/contracts';
import { ApiError } from '../../lib/http.ts';

/** Antd tag colours of CamInvoice's statuses (the same in light and dark themes). */
export const STATUS_COLOURS: Record<EInvoiceStatus, string> = {
  draft: 'default',
  submitting: 'processing',
  valid: 'success',
  delivered: 'cyan',
  accepted: 'green',
  rejected: 'error',
};

/** A failed write's words: a field's message when the server named one, else the answer's. */
export function problemOf(error: unknown, locale: Locale): string {
  if (error instanceof ApiError) {
    const field = Object.values(error.body?.errors ?? {})[0]?.[0];
    if (field) return field;
    if (error.body?.message) return error.body.message;
  }
  return translate('error.server', locale);
}
