import type { Notification, NotificationData } from '@depot/contracts';
import type Pusher from 'pusher-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../db/database.ts';
import { bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { connected, type Endpoint, listening, next, pusherClient, subscribe } from '../../test/realtime.ts';
import { notificationService } from './notifications.service.ts';

const ctx = useTestApp();
let endpoint: Endpoint;
const clients: Pusher[] = [];

beforeAll(async () => {
  endpoint = await listening(ctx.app);
});

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

const lowStock = (quantity: number): NotificationData<'low_stock'> => ({
  product_id: 7,
  product_name_en: 'Angkor beer 330 ml',
  product_name_kh: 'ស្រាបៀរអង្គរ ៣៣០ មល',
  store_id: 1,
  store_name: 'Main store',
  quantity,
  reorder_level: 24,
});

async function staff() {
  const user = await createUser(ctx.db, { roles: ['cashier'] });
  const { token } = await login(ctx.app, user.name, user.password);
  return { ...user, token };
}

function service() {
  return notificationService(ctx.db, ctx.app.realtime);
}

const call = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, locale = 'en') => {
  const res = await ctx.app.inject({ method, url, headers: { ...bearer(token), 'x-localization': locale } });
  return { status: res.statusCode, body: res.json() };
};

const list = async (token: string, query = '') =>
  (await call(token, 'GET', `/api/notifications${query}`)).body as { data: Notification[]; meta: { total: number } };

const unread = async (token: string) =>
  ((await call(token, 'GET', '/api/notifications/unread-count')).body as { data: { unread: number } }).data.unread;

describe('notify', () => {
  it('stores one notification per user in Laravel’s shape, with the link to its record', async () => {
    const [dara, sokha] = [await staff(), await staff()];
    await service().notify([dara.id, sokha.id], 'low_stock', lowStock(3));
    const { data, meta } = await list(dara.token);
    expect(meta.total).toBe(1);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'low_stock',
      data: { ...lowStock(3), link: '/stocks/low?filter[store_id]=1' },
      read_at: null,
      archived_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await ctx.db.selectFrom('notifications').selectAll().where('notifiable_id', '=', sokha.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].id).not.toBe(data[0].id);
  });

  it('delivers it live on the user’s private channel as BroadcastNotificationCreated: the data with id and type', async () => {
    const dara = await staff();
    const client = pusherClient(endpoint, dara.token);
    clients.push(client);
    await connected(client);
    const channel = await subscribe(client, `private-App.Models.User.${dara.id}`);
    const arrived = next(channel, 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated');
    const [stored] = await service().notify([dara.id], 'purchase_received', {
      purchase_id: 12,
      number: 'PO-2026-000012',
      store_id: 1,
      store_name: 'Main store',
      supplier_name: 'Lucky Trading',
    });
    expect(await arrived).toEqual({
      purchase_id: 12,
      number: 'PO-2026-000012',
      store_id: 1,
      store_name: 'Main store',
      supplier_name: 'Lucky Trading',
      link: '/purchases?view=12',
      id: stored.notification.id,
      type: 'purchase_received',
    });
  });

  it('stores nothing for work rolled back, and skips users who are gone', async () => {
    const dara = await staff();
    const gone = await staff();
    await ctx.db.updateTable('users').set({ deleted_at: now() }).where('id', '=', gone.id).execute();
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await service().store(trx, [dara.id], 'low_stock', lowStock(1));
        throw new Error('the sale failed');
      }),
    ).rejects.toThrow('the sale failed');
    expect((await list(dara.token)).meta.total).toBe(0);

    const stored = await service().notify([dara.id, gone.id, 999_999], 'low_stock', lowStock(1));
    expect(stored.map((s) => s.userId)).toEqual([dara.id]);
  });

  it('refuses data of the wrong shape for its type (a caller’s mistake)', async () => {
    const dara = await staff();
    await expect(service().notify([dara.id], 'low_stock', { product_id: 'seven' } as never)).rejects.toThrow();
    expect((await list(dara.token)).meta.total).toBe(0);
  });
});

describe('the inbox API', () => {
  it('shows users only their own notifications, and another’s is not found', async () => {
    const [dara, sokha] = [await staff(), await staff()];
    const [mine] = await service().notify([dara.id], 'low_stock', lowStock(2));
    const id = mine.notification.id;
    expect((await list(sokha.token)).meta.total).toBe(0);
    for (const [method, url] of [
      ['GET', `/api/notifications/${id}`],
      ['POST', `/api/notifications/${id}/read`],
      ['POST', `/api/notifications/${id}/archive`],
      ['DELETE', `/api/notifications/${id}`],
    ] as const) {
      expect(await call(sokha.token, method, url), `${method} ${url}`).toEqual({
        status: 404,
        body: { message: 'Not found' },
      });
    }
    expect((await call(dara.token, 'GET', `/api/notifications/${id}`)).body.data.id).toBe(id);
  });

  it('filters unread / read / all, counts the unread for the bell, marks read and unread', async () => {
    const dara = await staff();
    const stored = await service().notify([dara.id], 'low_stock', lowStock(5));
    await service().notify([dara.id], 'low_stock', lowStock(4));
    const [first] = stored;
    expect(await unread(dara.token)).toBe(2);

    const read = await call(dara.token, 'POST', `/api/notifications/${first.notification.id}/read`, 'kh');
    expect(read.status).toBe(200);
    expect(read.body.message).toBe('បានសម្គាល់ថាបានអាន។');
    expect(read.body.data.read_at).toEqual(expect.any(String));
    expect(await unread(dara.token)).toBe(1);
    expect((await list(dara.token, '?filter[status]=unread')).data.map((n) => n.data.quantity)).toEqual([4]);
    expect((await list(dara.token, '?filter[status]=read')).data.map((n) => n.data.quantity)).toEqual([5]);
    expect((await list(dara.token, '?filter[status]=all')).meta.total).toBe(2);

    const again = await call(dara.token, 'POST', `/api/notifications/${first.notification.id}/unread`);
    expect(again.body).toMatchObject({ message: 'Marked as unread.', data: { read_at: null } });
    expect(await unread(dara.token)).toBe(2);
  });

  it('marks all read, and tells the user’s other tabs the new count', async () => {
    const dara = await staff();
    await service().notify([dara.id], 'low_stock', lowStock(5));
    await service().notify([dara.id], 'low_stock', lowStock(4));
    const client = pusherClient(endpoint, dara.token);
    clients.push(client);
    await connected(client);
    const channel = await subscribe(client, `private-App.Models.User.${dara.id}`);
    const told = next(channel, 'App\\Events\\NotificationsUpdated');
    const res = await call(dara.token, 'POST', '/api/notifications/read-all');
    expect(res).toEqual({
      status: 200,
      body: { message: 'All notifications marked as read (2).', data: { updated: 2 } },
    });
    expect(await told).toEqual({ unread: 0 });
    expect(await unread(dara.token)).toBe(0);
  });

  it('archives out of the inbox (and its count) into the archive, and back', async () => {
    const dara = await staff();
    const [stored] = await service().notify([dara.id], 'transfer_arriving', {
      transfer_id: 4,
      number: 'TR-2026-000004',
      from_store_name: 'Main store',
      to_store_id: 2,
      to_store_name: 'Siem Reap',
    });
    const id = stored.notification.id;
    const archived = await call(dara.token, 'POST', `/api/notifications/${id}/archive`);
    expect(archived.body).toMatchObject({
      message: 'Notification archived.',
      data: { archived_at: expect.any(String) },
    });
    expect((await list(dara.token)).meta.total).toBe(0);
    expect(await unread(dara.token)).toBe(0);
    const archive = await list(dara.token, '?filter[archived]=1');
    expect(archive.data.map((n) => [n.id, n.data.link])).toEqual([[id, '/stocks/transfer?view=4']]);

    await call(dara.token, 'POST', `/api/notifications/${id}/unarchive`);
    expect((await list(dara.token)).meta.total).toBe(1);
    expect((await list(dara.token, '?filter[archived]=1')).meta.total).toBe(0);
  });

  it('pages newest first, and deletes', async () => {
    const dara = await staff();
    for (const quantity of [1, 2, 3]) await service().notify([dara.id], 'low_stock', lowStock(quantity));
    const page = await list(dara.token, '?per_page=10&page=1');
    expect(page.data.map((n) => n.data.quantity)).toEqual([3, 2, 1]);
    const deleted = await call(dara.token, 'DELETE', `/api/notifications/${page.data[0].id}`);
    expect(deleted).toEqual({ status: 200, body: { message: 'Notification deleted.' } });
    expect((await list(dara.token)).meta.total).toBe(2);
  });

  it('refuses an unknown filter with 422', async () => {
    const dara = await staff();
    const res = await call(dara.token, 'GET', '/api/notifications?filter[status]=new');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'filter[status]': ['Choose one of the allowed values.'] });
  });
});
