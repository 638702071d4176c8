import { z } from 'zod';
import { MAX_ID } from './ids.ts';
import { listQuery } from './resources.ts';

/**
 * Notifications (spec section 1: an inbox with archive and unread / read filters), stored per user
 * in Laravel's shape: a uuid, a `type`, the `data` it was raised with, `read_at`, plus `archived_at`.
 * The text is never stored: the web app writes it from the type and the data, in the reader's
 * language, so a Khmer reader and an English one see the same notification in their own words.
 */

const id = z.number().int().min(1).max(MAX_ID);
const productName = { product_id: id, product_name_en: z.string(), product_name_kh: z.string() };
const store = { store_id: id, store_name: z.string() };

/**
 * Each kind of notification: the data it carries (names as they were when it was raised, so the
 * text needs no lookup) and its `link`, the screen that shows the record (a path without the `/en`
 * prefix, stored in the data). Raised from domain events after their commit.
 */
export const notificationKinds = {
  /** A product at or under its reorder level in a store (stock keepers and managers of that store). */
  low_stock: {
    data: z.object({ ...productName, ...store, quantity: z.number().int(), reorder_level: z.number().int() }),
    link: (d: { store_id: number; product_id: number }) => `/stocks/low?filter[store_id]=${d.store_id}`,
  },
  /** A batch whose expiry date is near. */
  batch_expiring: {
    data: z.object({
      ...productName,
      ...store,
      batch_id: id,
      lot: z.string().nullable(),
      expiry_date: z.iso.date(),
      quantity: z.number().int(),
    }),
    link: () => '/products/expired?tab=expiring',
  },
  /** A transfer sent to the reader's store, on its way. */
  transfer_arriving: {
    data: z.object({
      transfer_id: id,
      number: z.string(),
      from_store_name: z.string(),
      to_store_id: id,
      to_store_name: z.string(),
    }),
    link: (d: { transfer_id: number }) => `/stocks/transfer?view=${d.transfer_id}`,
  },
  /** An order paid for delivery: its parcel is to be prepared. */
  delivery_to_prepare: {
    data: z.object({ order_id: id, number: z.string(), ...store, customer_name: z.string().nullable() }),
    link: (d: { order_id: number }) => `/orders?view=${d.order_id}`,
  },
  /** A purchase received into a store. */
  purchase_received: {
    data: z.object({ purchase_id: id, number: z.string(), ...store, supplier_name: z.string().nullable() }),
    link: (d: { purchase_id: number }) => `/purchases?view=${d.purchase_id}`,
  },
  /** A sale made offline took more than the store had: its stock is below zero until counted or received. */
  offline_oversold: {
    data: z.object({ order_id: id, number: z.string(), ...store, cashier_name: z.string().nullable() }),
    link: (d: { order_id: number }) => `/orders?view=${d.order_id}`,
  },
  /** A cashier asks to void an order: someone who may approve it is told. */
  void_awaiting_approval: {
    data: z.object({ order_id: id, number: z.string(), ...store, requested_by: z.string() }),
    link: (d: { order_id: number }) => `/orders?view=${d.order_id}`,
  },
  /** A cashier asks to refund (return) part of an order: someone who may approve it is told. */
  refund_awaiting_approval: {
    data: z.object({
      order_id: id,
      number: z.string(),
      ...store,
      requested_by: z.string(),
      amount_usd_cents: z.number().int(),
    }),
    link: (d: { order_id: number }) => `/orders?view=${d.order_id}`,
  },
} as const;

export type NotificationType = keyof typeof notificationKinds;
export const NOTIFICATION_TYPES = Object.keys(notificationKinds) as NotificationType[];
export type NotificationData<T extends NotificationType> = z.infer<(typeof notificationKinds)[T]['data']>;

export function isNotificationType(value: string): value is NotificationType {
  return Object.hasOwn(notificationKinds, value);
}

/** A notification as the API answers it (and, without the dates, as it arrives live). */
export const notification = z.object({
  id: z.uuid(),
  type: z.string(),
  /** The kind's data and its `link`. A type this app does not know yet is shown by its link alone. */
  data: z.looseObject({ link: z.string().optional() }),
  read_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Notification = z.infer<typeof notification>;

/**
 * What arrives on `private-App.Models.User.{id}` as `BroadcastNotificationCreated`: Laravel sends
 * the data with the notification's `id` and `type` merged in.
 */
export const notificationBroadcast = z.looseObject({ id: z.string(), type: z.string() });

export const NOTIFICATION_STATUSES = ['unread', 'read', 'all'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** `GET /api/notifications?filter[status]=unread|read|all&filter[archived]=0|1&page=&per_page=` */
export const notificationListQuery = listQuery.pick({ page: true, per_page: true }).extend({
  'filter[status]': z.enum(NOTIFICATION_STATUSES).default('all'),
  /** 1: the archive; 0 (the default): the inbox. */
  'filter[archived]': z.enum(['0', '1']).default('0'),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationCount = z.object({ data: z.object({ unread: z.number().int() }) });
