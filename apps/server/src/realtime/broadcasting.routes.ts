import {
  BROADCASTING_AUTH_PATH,
  BROADCASTING_USER_AUTH_PATH,
  broadcastingAuthBody,
  broadcastingAuthResponse,
  broadcastingChannelsResponse,
  broadcastingUserAuthBody,
  broadcastingUserAuthResponse,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../access/access.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import { askerOf } from './channels.ts';
import type { Realtime } from './realtime.ts';

/**
 * `POST /broadcasting/auth` (spec section 7), where laravel-echo asks to join a private or presence
 * channel: the bearer token says who asks, the channel rules whether they may, and the answer is
 * the signature the socket presents when it subscribes. At the spec's path, not under `/api/`:
 * it is laravel-echo's default `authEndpoint`, and the page's configuration names it.
 */
export const broadcastingRoutes: FastifyPluginAsyncZod<{ realtime: Realtime; db: Db }> = async (
  app,
  { realtime, db },
) => {
  // pusher-js posts `socket_id=…&channel_name=…` form-encoded; the spec's client sends JSON
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post(
    BROADCASTING_AUTH_PATH,
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['broadcasting'],
        summary: 'Signs a private or presence channel for a socket (Pusher protocol)',
        body: broadcastingAuthBody,
        response: { 200: broadcastingAuthResponse },
      },
    },
    async (request) => {
      const { socket_id, channel_name } = request.body;
      const answer = realtime.authorize(askerOf(authOf(request)), socket_id, channel_name);
      if (!answer) throw new AppError(403, 'broadcasting.forbidden');
      return answer;
    },
  );

  app.post(
    BROADCASTING_USER_AUTH_PATH,
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['broadcasting'],
        summary: 'Signs a socket in as the signed-in user (Pusher user authentication, pusher-js signin)',
        body: broadcastingUserAuthBody,
        response: { 200: broadcastingUserAuthResponse },
      },
    },
    async (request) => realtime.signin(askerOf(authOf(request)), request.body.socket_id),
  );

  app.get(
    '/api/broadcasting/channels',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['broadcasting'],
        summary: 'The stores whose channels the user may listen to (their coverage)',
        response: { 200: broadcastingChannelsResponse },
      },
    },
    async (request) => {
      const { coverage } = authOf(request);
      const stores = coverage.all
        ? (await db.selectFrom('stores').select('id').where('deleted_at', 'is', null).orderBy('id').execute()).map(
            (r) => r.id,
          )
        : [...coverage.storeIds];
      return { data: { stores } };
    },
  );
};
