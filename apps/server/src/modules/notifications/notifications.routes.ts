import {
  messageResponse,
  notification,
  notificationCount,
  notificationListQuery,
  paginated,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import { say } from '../../http/locale.ts';
import { pageAnswer } from '../../kit/resource.ts';
import type { NotificationService } from './notifications.service.ts';

const tags = ['notifications'];
/** Any string: an id that is not one of the user's notifications is simply not found. */
const params = z.object({ id: z.string().min(1).max(64) });

/**
 * The signed-in user's notifications, and only theirs: every query is bounded to their id, so
 * another user's notification is "Not found" whatever its id.
 */
export const notificationRoutes: FastifyPluginAsyncZod<{ notifications: NotificationService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/api/notifications',
    {
      config: { access: 'notifications.list' },
      schema: {
        tags,
        summary: 'The inbox (or with filter[archived]=1 the archive), unread / read / all, newest first',
        querystring: notificationListQuery,
        response: { 200: paginated(notification) },
      },
    },
    async (request) => {
      const query = request.query;
      const filter = { status: query['filter[status]'], archived: query['filter[archived]'] === '1' };
      const { rows, total } = await notifications.page(authOf(request).userId, filter, query);
      return pageAnswer(request, query, rows, total);
    },
  );

  app.get(
    '/api/notifications/unread-count',
    {
      config: { access: 'notifications.list' },
      schema: { tags, summary: 'Unread notifications in the inbox (the bell)', response: { 200: notificationCount } },
    },
    async (request) => ({ data: { unread: await notifications.unreadCount(authOf(request).userId) } }),
  );

  app.post(
    '/api/notifications/read-all',
    {
      config: { access: 'notifications.update' },
      schema: { tags, response: { 200: written(z.object({ updated: z.number().int() })) } },
    },
    async (request) => {
      const updated = await notifications.readAll(authOf(request).userId);
      return { message: await say(request, 'notification.read_all', { count: updated }), data: { updated } };
    },
  );

  app.get(
    '/api/notifications/:id',
    {
      config: { access: 'notifications.view' },
      schema: { tags, params, response: { 200: single(notification) } },
    },
    async (request) => ({ data: await notifications.show(authOf(request).userId, request.params.id) }),
  );

  const marks = [
    ['read', 'notification.read', (user: number, id: string) => notifications.markRead(user, id, true)],
    ['unread', 'notification.unread', (user: number, id: string) => notifications.markRead(user, id, false)],
    ['archive', 'notification.archived', (user: number, id: string) => notifications.markArchived(user, id, true)],
    ['unarchive', 'notification.unarchived', (user: number, id: string) => notifications.markArchived(user, id, false)],
  ] as const;
  for (const [action, message, mark] of marks) {
    app.post(
      `/api/notifications/:id/${action}`,
      {
        config: { access: 'notifications.update' },
        schema: { tags, params, response: { 200: written(notification) } },
      },
      async (request) => ({
        message: await say(request, message),
        data: await mark(authOf(request).userId, request.params.id),
      }),
    );
  }

  app.delete(
    '/api/notifications/:id',
    {
      config: { access: 'notifications.delete' },
      schema: { tags, params, response: { 200: messageResponse } },
    },
    async (request) => {
      await notifications.remove(authOf(request).userId, request.params.id);
      return { message: await say(request, 'notification.deleted') };
    },
  );
};
