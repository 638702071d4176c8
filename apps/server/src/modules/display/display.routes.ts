import {
  broadcastingAuthBody,
  broadcastingAuthResponse,
  broadcastingUserAuthBody,
  broadcastingUserAuthResponse,
  displayPairInput,
  displayPairingResponse,
  displayPairingStatus,
  displayPairResponse,
  displayState,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { DisplayService } from './display.service.ts';

/**
 * The customer display (display.service.ts). The till's routes need the till's permission and its
 * session; the tablet's are public by the access hook and answer only to a display token, which
 * opens its one channel and nothing else.
 */
export const displayRoutes: FastifyPluginAsyncZod<{ displays: DisplayService }> = async (app, { displays }) => {
  const tags = ['display'];
  // pusher-js posts `socket_id=…&channel_name=…` form-encoded (as to /broadcasting/auth)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post(
    '/api/display/pairings',
    {
      config: { access: 'orders.create' },
      schema: {
        tags,
        summary: 'A code to pair a customer display with this till (any display paired before is unpaired)',
        response: { 201: displayPairingResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await displays.start(authOf(request)) }),
  );

  app.get(
    '/api/display/pairings/current',
    {
      config: { access: 'orders.create' },
      schema: {
        tags,
        summary: "Whether a display is paired with this till's session",
        response: { 200: displayPairingStatus },
      },
    },
    async (request) => ({ data: await displays.status(authOf(request)) }),
  );

  app.delete(
    '/api/display/pairings/current',
    {
      config: { access: 'orders.create' },
      schema: { tags, summary: "Unpairs this till's displays", response: { 204: z.null() } },
    },
    async (request, reply) => {
      await displays.end(authOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/display/state',
    {
      config: { access: 'orders.create' },
      schema: {
        tags,
        summary: "What this till's paired displays show now",
        body: displayState,
        response: { 200: z.object({ data: z.object({ displays: z.number().int() }) }) },
      },
    },
    async (request) => ({ data: { displays: await displays.publish(authOf(request), request.body) } }),
  );

  app.post(
    '/api/display/pair',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A tablet enters the till's code: a display token for its channel alone",
        body: displayPairInput,
        response: { 200: displayPairResponse },
      },
    },
    async (request) => ({ data: await displays.pair(request.body.code, request.ip) }),
  );

  app.post(
    '/api/display/auth',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Signs a display's socket into its channel (display token)",
        body: broadcastingAuthBody,
        response: { 200: broadcastingAuthResponse },
      },
    },
    async (request) => {
      const pairing = await displays.displayOf(request.headers.authorization);
      return displays.authorize(pairing, request.body.socket_id, request.body.channel_name);
    },
  );

  app.post(
    '/api/display/user-auth',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Signs a display's socket in (display token)",
        body: broadcastingUserAuthBody,
        response: { 200: broadcastingUserAuthResponse },
      },
    },
    async (request) => displays.signin(await displays.displayOf(request.headers.authorization), request.body.socket_id),
  );
};
