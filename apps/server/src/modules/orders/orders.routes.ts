import {
  cancelInput,
  cashier,
  deliveryInput,
  idParams,
  type MessageKey,
  orderDetail,
  orderInput,
  paymentsInput,
  returnInput,
  single,
  translate,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { orderService } from './orders.service.ts';

/**
 * Selling. The till sells with `orders.create` (a sale, a held cart, a payment taken later); a
 * cashier cancels with `orders.cancel`; returns and refunds need `orders.approve` (a manager's);
 * delivery steps `orders.update`. Sales, payments, returns are idempotent with `Idempotency-Key`:
 * a retried sale never sells twice.
 */
export const orderRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = orderService(db);
  const tags = ['orders'];
  const answer = written(orderDetail);
  const say = (locale: 'kh' | 'en', key: MessageKey) => translate(key, locale);

  // the orders list's cashier filter
  app.get(
    '/api/orders/cashiers',
    { config: { access: 'orders.list' }, schema: { tags, response: { 200: single(z.array(cashier)) } } },
    async () => ({ data: await service.cashiers() }),
  );

  app.get(
    '/api/orders/:id',
    { config: { access: 'orders.view' }, schema: { tags, params: idParams, response: { 200: single(orderDetail) } } },
    async (request) => ({ data: await service.show(request.params.id) }),
  );

  app.post(
    '/api/orders',
    {
      config: { access: 'orders.create', idempotent: true },
      schema: { tags, body: orderInput, response: { 201: answer } },
    },
    async (request, reply) => {
      const data = await service.create(request.body, authOf(request).userId);
      return reply
        .code(201)
        .send({ message: say(request.locale, data.status === 'held' ? 'order.held' : 'order.created'), data });
    },
  );

  app.put(
    '/api/orders/:id',
    {
      config: { access: 'orders.create', idempotent: true },
      schema: { tags, params: idParams, body: orderInput, response: { 200: answer } },
    },
    async (request) => {
      const data = await service.update(request.params.id, request.body, authOf(request).userId);
      return { message: say(request.locale, data.status === 'held' ? 'order.held' : 'order.created'), data };
    },
  );

  app.post(
    '/api/orders/:id/payments',
    {
      config: { access: 'orders.create', idempotent: true },
      schema: { tags, params: idParams, body: paymentsInput, response: { 200: answer } },
    },
    async (request) => ({
      message: say(request.locale, 'order.paid'),
      data: await service.pay(request.params.id, request.body.payments, authOf(request).userId),
    }),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      config: { access: 'orders.cancel', idempotent: true },
      schema: { tags, params: idParams, body: cancelInput, response: { 200: answer } },
    },
    async (request) => ({
      message: say(request.locale, 'order.cancelled'),
      data: await service.cancel(request.params.id, request.body.reason, authOf(request).userId),
    }),
  );

  app.post(
    '/api/orders/:id/returns',
    {
      config: { access: 'orders.approve', idempotent: true },
      schema: { tags, params: idParams, body: returnInput, response: { 200: answer } },
    },
    async (request) => ({
      message: say(request.locale, 'order.returned'),
      data: await service.giveBack(request.params.id, request.body, authOf(request).userId),
    }),
  );

  app.post(
    '/api/orders/:id/delivery',
    {
      config: { access: 'orders.update' },
      schema: { tags, params: idParams, body: deliveryInput, response: { 200: answer } },
    },
    async (request) => ({
      message: say(request.locale, 'order.delivery_moved'),
      data: await service.deliver(request.params.id, request.body.status),
    }),
  );
};
