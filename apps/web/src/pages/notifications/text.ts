import {
  customerName,
  formatDate,
  formatUsd,
  isNotificationType,
  type Locale,
  type Notification,
  notificationKinds,
} from '@depot/contracts';
import type { TFunction } from 'i18next';

/**
 * A notification's title and sentence in the reader's language, from its type and data (the text
 * is never stored). A type this version does not know still shows, with a plain title.
 */
export function notificationText(item: Pick<Notification, 'type' | 'data'>, t: TFunction, locale: Locale) {
  const unknown = { title: t('notifications.types.unknown.title'), text: '' };
  if (!isNotificationType(item.type)) return unknown;
  const parsed = notificationKinds[item.type].data.safeParse(item.data);
  if (!parsed.success) return unknown;
  const d = parsed.data as Record<string, unknown>;
  const product = locale === 'kh' ? d.product_name_kh : d.product_name_en;
  const values: Record<string, unknown> = {
    ...d,
    product,
    store: d.store_name,
    customer_name: typeof d.customer_name === 'string' ? customerName(d.customer_name, locale) : d.customer_name,
    // a date as people write it: March 12, 2026 / 12 មីនា 2026
    date: typeof d.expiry_date === 'string' ? formatDate(d.expiry_date, locale, { long: true }) : undefined,
    amount: typeof d.amount_usd_cents === 'number' ? formatUsd(d.amount_usd_cents) : undefined,
    // a sentence with or without an optional part: i18next's context picks `…_lot`, `…_customer`
    context: d.lot ? 'lot' : d.customer_name ? 'customer' : d.supplier_name ? 'supplier' : undefined,
  };
  return {
    title: t(`notifications.types.${item.type}.title`),
    text: t(`notifications.types.${item.type}.text`, values),
  };
}
