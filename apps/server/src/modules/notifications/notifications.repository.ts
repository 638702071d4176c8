import type { Notification, NotificationStatus } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { NotificationsTable } from '../../db/schema.ts';

/** The Kysely queries of notifications: every one is bounded to its user (`notifiable_id`). */

function toNotification(row: NotificationsTable): Notification {
  let data: Notification['data'] = {};
  try {
    data = JSON.parse(row.data) as Notification['data'];
  } catch {
    // unreadable data: shown as a notification of its type without details
  }
  return {
    id: row.id,
    type: row.type,
    data,
    read_at: row.read_at,
    archived_at: row.archived_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface NotificationFilter {
  status: NotificationStatus;
  archived: boolean;
}

function mine(db: Db, userId: number) {
  return db.selectFrom('notifications').where('notifiable_id', '=', userId);
}

export function notificationsRepository(db: Db) {
  return {
    /** Users among these who can be told (not deleted). */
    async recipients(trx: Db, userIds: readonly number[]): Promise<number[]> {
      if (!userIds.length) return [];
      const rows = await trx
        .selectFrom('users')
        .select('id')
        .where('id', 'in', [...new Set(userIds)])
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    },

    async insert(trx: Db, rows: NotificationsTable[]): Promise<Notification[]> {
      if (rows.length) await trx.insertInto('notifications').values(rows).execute();
      return rows.map(toNotification);
    },

    /** One page of a user's inbox or archive, newest first, and how many there are in all. */
    async page(userId: number, filter: NotificationFilter, page: { page: number; per_page: number }) {
      let query = mine(db, userId).where('archived_at', filter.archived ? 'is not' : 'is', null);
      if (filter.status === 'unread') query = query.where('read_at', 'is', null);
      if (filter.status === 'read') query = query.where('read_at', 'is not', null);
      const rows = await query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.per_page)
        .offset((page.page - 1) * page.per_page)
        .execute();
      const count = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return { rows: rows.map(toNotification), total: Number(count.n) };
    },

    async find(userId: number, id: string): Promise<Notification | undefined> {
      const row = await mine(db, userId).selectAll().where('id', '=', id).executeTakeFirst();
      return row && toNotification(row);
    },

    /** Unread in the inbox: what the bell counts (archived notifications are dealt with). */
    async unreadCount(userId: number): Promise<number> {
      const row = await mine(db, userId)
        .select(sql<number>`count(*)`.as('n'))
        .where('read_at', 'is', null)
        .where('archived_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Sets `read_at` or `archived_at` (a time, or null to undo); the notification as it is now. */
    async mark(
      userId: number,
      id: string,
      column: 'read_at' | 'archived_at',
      at: string | null,
      stamp: string,
    ): Promise<Notification | undefined> {
      // a read notification keeps when it was first read
      let update = db.updateTable('notifications').set({ [column]: at, updated_at: stamp });
      update = update.where('notifiable_id', '=', userId).where('id', '=', id);
      if (at !== null) update = update.where(column, 'is', null);
      await update.execute();
      return this.find(userId, id);
    },

    async readAll(userId: number, at: string): Promise<number> {
      const result = await db
        .updateTable('notifications')
        .set({ read_at: at, updated_at: at })
        .where('notifiable_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async remove(userId: number, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('notifications')
        .where('notifiable_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
