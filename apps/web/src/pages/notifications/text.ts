import {
  customerName,
  formatUsd,
  isNotificationType,
  type Locale,
  type Notification,
  notificationKinds,
  shownDigits,
} from '@depot/contracts';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { dayjsLocale } from '../../lib/dates.ts';

/** A date as people write it (Khmer month names on Khmer pages: KHMER.md), in the page's numerals. */
function day(value: string, locale: Locale): string {
  return shownDigits(dayjs(value).locale(dayjsLocale(locale)).format('LL'));
}

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
    date: typeof d.expiry_date === 'string' ? day(d.expiry_date, locale) : undefined,
    amount: typeof d.amount_usd_cents === 'number' ? formatUsd(d.amount_usd_cents) : undefined,
    // a sentence with or without an optional part: i18next's context picks `…_lot`, `…_customer`
    context: d.lot ? 'lot' : d.customer_name ? 'customer' : d.supplier_name ? 'supplier' : undefined,
  };
  return {
    title: t(`notifications.types.${item.type}.title`),
    text: t(`notifications.types.${item.type}.text`, values),
  };
}
