import {
  idParams,
  khqrCheck,
  khqrOfflineInput,
  khqrPayment,
  khqrRequestInput,
  khqrTransferInput,
  khqrUnchecked,
  orderDetail,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { orderService } from '../orders/orders.service.ts';
import { type BakongConfig, bakongClient } from './bakong.ts';
import { khqrClaims } from './khqr.claims.ts';
import { khqrService } from './khqr.service.ts';

/**
 * An order's KHQR: made by whoever sells (`orders.create`), read by whoever sees the order (a
 * receipt prints it), checked with Bakong when a token is configured.
 */
export const khqrRoutes: FastifyPluginAsyncZod<{ db: Db; bakong: BakongConfig | null; tillMinutes?: number }> = async (
  app,
  { db, bakong, tillMinutes },
) => {
  const orders = orderService(db);
  const client = bakong ? bakongClient(bakong) : null;
  const service = khqrService(db, orders, client, tillMinutes);
  const claims = khqrClaims(db, orders, client);
  const tags = ['orders'];

  app.post(
    '/api/orders/:id/khqr',
    {
      config: { access: 'orders.create' },
      schema: { tags, params: idParams, body: khqrRequestInput, response: { 201: written(khqrPayment) } },
    },
    async (request, reply) => {
      const made = await service.make(authOf(request), request.params.id, request.body);
      return reply
        .code(201)
        .send({ message: await say(request, 'khqr.made', { amount: made.amount }), data: made.data });
    },
  );

  app.get(
    '/api/orders/:id/khqr',
    {
      config: { access: 'orders.view' },
      schema: { tags, params: idParams, response: { 200: single(khqrPayment.nullable()) } },
    },
    async (request) => ({ data: await service.latest(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/orders/:id/khqr/check',
    {
      config: { access: 'orders.create' },
      schema: {
        tags,
        params: idParams,
        body: z
          .object({
            md5: z
              .string()
              .regex(/^[0-9a-f]{32}$/)
              .optional(),
          })
          .nullish()
          .transform((v) => v ?? {}),
        response: { 200: written(khqrCheck.extend({ order: orderDetail })) },
      },
    },
    async (request) => {
      const result = await service.check(authOf(request), request.params.id, request.body.md5);
      return {
        message: await say(request, result.paid ? 'khqr.paid' : 'khqr.not_paid_yet'),
        data: { ...result, order: await orders.show(authOf(request), request.params.id) },
      };
    },
  );

  app.post(
    '/api/orders/:id/khqr/transfer',
    {
      config: { access: 'orders.create' },
      schema: { tags, params: idParams, body: khqrTransferInput, response: { 200: written(orderDetail) } },
    },
    async (request) => ({
      message: await say(request, 'khqr.transfer_paid'),
      data: await claims.transfer(authOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/orders/:id/khqr/offline',
    {
      config: { access: 'orders.create' },
      schema: { tags, params: idParams, body: khqrOfflineInput, response: { 200: written(khqrPayment) } },
    },
    async (request) => ({
      message: await say(request, 'khqr.offline_recorded'),
      data: await service.offline(authOf(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/api/shifts/:id/khqr',
    {
      config: { access: 'shifts.view' },
      schema: { tags: ['shifts'], params: idParams, response: { 200: single(z.array(khqrUnchecked)) } },
    },
    async (request) => ({ data: await claims.unchecked(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/shifts/:id/khqr/check',
    {
      config: { access: 'shifts.update' },
      schema: { tags: ['shifts'], params: idParams, response: { 200: written(z.array(khqrUnchecked)) } },
    },
    async (request) => {
      const data = await claims.sweep(authOf(request), request.params.id);
      const confirmed = data.filter((row) => row.result === 'confirmed').length;
      return {
        message: await say(request, 'khqr.swept', { confirmed, missing: data.length - confirmed }),
        data,
      };
    },
  );
};
