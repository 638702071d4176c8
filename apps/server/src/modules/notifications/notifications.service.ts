import { randomBytes } from 'node:crypto';
import {
  appEvent,
  channelNames,
  NOTIFICATION_CREATED_EVENT,
  type Notification,
  type NotificationData,
  type NotificationType,
  notificationKinds,
  privateChannel,
} from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { notFound } from '../../http/errors.ts';
import type { Realtime } from '../../realtime/realtime.ts';
import { type NotificationFilter, notificationsRepository } from './notifications.repository.ts';

/** Sent on a user's channel when their notifications change elsewhere (another tab read them). */
export const NOTIFICATIONS_UPDATED_EVENT = appEvent('NotificationsUpdated');

let lastMs = 0;
let sequence = 0;

/**
 * A time-ordered uuid (RFC 9562 version 7, as Laravel's `Str::orderedUuid` keys notifications), with
 * a counter within the millisecond, so notifications raised together keep their order. Node 20
 * has no `randomUUIDv7`.
 */
export function orderedUuid(at = Date.now()): string {
  let ms = Math.max(at, lastMs);
  if (ms === lastMs) {
    sequence += 1;
    if (sequence > 0xfff) {
      ms += 1;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface StoredNotification {
  userId: number;
  notification: Notification;
}

export function notificationService(db: Db, realtime: Realtime) {
  const repo = notificationsRepository(db);

  /** Tells the user's other tabs and the bell what their unread count is now. */
  async function updated(userId: number) {
    const unread = await repo.unreadCount(userId);
    await realtime.broadcast(privateChannel(channelNames.user(userId)), NOTIFICATIONS_UPDATED_EVENT, { unread });
  }

  async function changed(userId: number, found: Notification | undefined): Promise<Notification> {
    if (!found) throw notFound();
    await updated(userId);
    return found;
  }

  const service = {
    /**
     * Stores one notification per user inside the caller's transaction. Broadcast them with
     * `announce` once it has committed (a notification must not arrive for work rolled back).
     */
    async store<T extends NotificationType>(
      trx: Db,
      userIds: readonly number[],
      type: T,
      data: NotificationData<T>,
    ): Promise<StoredNotification[]> {
      const kind = notificationKinds[type];
      // a wrong shape is the caller's mistake, found by its tests: it throws
      const checked = kind.data.parse(data) as Record<string, unknown>;
      const payload = JSON.stringify({ ...checked, link: kind.link(checked as never) });
      const at = now();
      const users = await repo.recipients(trx, userIds);
      const rows = users.map((userId) => ({
        id: orderedUuid(),
        type,
        notifiable_id: userId,
        data: payload,
        read_at: null,
        archived_at: null,
        created_at: at,
        updated_at: at,
      }));
      const stored = await repo.insert(trx, rows);
      return stored.map((notification, i) => ({ userId: users[i], notification }));
    },

    /** Laravel's `BroadcastNotificationCreated` on each user's channel: the data with `id` and `type`. */
    async announce(stored: readonly StoredNotification[]): Promise<void> {
      for (const { userId, notification } of stored) {
        await realtime.broadcast(privateChannel(channelNames.user(userId)), NOTIFICATION_CREATED_EVENT, {
          ...notification.data,
          id: notification.id,
          type: notification.type,
        });
      }
    },

    /** Stores and, once committed, broadcasts: what domain events' handlers call. */
    async notify<T extends NotificationType>(userIds: readonly number[], type: T, data: NotificationData<T>) {
      const stored = await transaction(db, (trx) => service.store(trx, userIds, type, data));
      await service.announce(stored);
      return stored;
    },

    page(userId: number, filter: NotificationFilter, page: { page: number; per_page: number }) {
      return repo.page(userId, filter, page);
    },

    unreadCount(userId: number) {
      return repo.unreadCount(userId);
    },

    async show(userId: number, id: string): Promise<Notification> {
      const found = await repo.find(userId, id);
      if (!found) throw notFound();
      return found;
    },

    async markRead(userId: number, id: string, read: boolean) {
      const at = now();
      return changed(userId, await repo.mark(userId, id, 'read_at', read ? at : null, at));
    },

    async markArchived(userId: number, id: string, archived: boolean) {
      const at = now();
      return changed(userId, await repo.mark(userId, id, 'archived_at', archived ? at : null, at));
    },

    async readAll(userId: number): Promise<number> {
      const count = await repo.readAll(userId, now());
      await updated(userId);
      return count;
    },

    async remove(userId: number, id: string): Promise<void> {
      if (!(await repo.remove(userId, id))) throw notFound();
      await updated(userId);
    },
  };
  return service;
}

export type NotificationService = ReturnType<typeof notificationService>;
