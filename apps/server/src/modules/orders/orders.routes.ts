import {
  cancelInput,
  cashier,
  deliveryInput,
  idParams,
  orderDetail,
  orderInput,
  paymentsInput,
  returnInput,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import type { ApprovalService } from '../../policies/approval.ts';
import { orderService } from './orders.service.ts';

/**
 * Selling. The till sells with `orders.create` (a sale, a held cart, a payment taken later); voids
 * and returns start from `orders.cancel`, and the order's policy (policies/orders.ts) asks for a
 * manager (`orders.approve`, or a manager's approval in the body) where money goes back; delivery
 * steps `orders.update`. Sales, payments, voids and returns are idempotent with `Idempotency-Key`:
 * a retried sale never sells twice.
 */
export const orderRoutes: FastifyPluginAsyncZod<{ db: Db; approvals: ApprovalService }> = async (
  app,
  { db, approvals },
) => {
  const service = orderService(db);
  const tags = ['orders'];
  const answer = written(orderDetail);

  // the orders list's cashier filter
  app.get(
    '/api/orders/cashiers',
    { config: { access: 'orders.list' }, schema: { tags, response: { 200: single(z.array(cashier)) } } },
    async (request) => ({ data: await service.cashiers(authOf(request)) }),
  );

  app.get(
    '/api/orders/:id',
    { config: { access: 'orders.view' }, schema: { tags, params: idParams, response: { 200: single(orderDetail) } } },
    async (request) => ({ data: await service.show(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/orders',
    {
      config: { access: 'orders.create', idempotent: true },
      schema: { tags, body: orderInput, response: { 201: answer } },
    },
    async (request, reply) => {
      const approver = await approvals.identify(request.body.approval, request.ip);
      const data = await service.create(authOf(request), request.body, approver);
      return reply
        .code(201)
        .send({ message: await say(request, data.status === 'held' ? 'order.held' : 'order.created'), data });
    },
  );

  app.put(
    '/api/orders/:id',
    {
      config: { access: 'orders.create', idempotent: true },
      schema: { tags, params: idParams, body: orderInput, response: { 200: answer } },
    },
    async (request) => {
      const approver = await approvals.identify(request.body.approval, request.ip);
      const data = await service.update(authOf(request), request.params.id, request.body, approver);
      return { message: await say(request, data.status === 'held' ? 'order.held' : 'order.created'), data };
    },
  );

  app.post(
    '/api/orders/:id/payments',
    {
      config: { access: 'orders.create', idempotent: true },
      schema: { tags, params: idParams, body: paymentsInput, response: { 200: answer } },
    },
    async (request) => ({
      message: await say(request, 'order.paid'),
      data: await service.pay(authOf(request), request.params.id, request.body.payments, request.body.change_in),
    }),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      config: { access: 'orders.cancel', idempotent: true },
      schema: { tags, params: idParams, body: cancelInput, response: { 200: answer } },
    },
    async (request) => {
      const approver = await approvals.identify(request.body.approval, request.ip);
      return {
        message: await say(request, 'order.cancelled'),
        data: await service.cancel(authOf(request), request.params.id, request.body.reason, approver),
      };
    },
  );

  app.post(
    '/api/orders/:id/returns',
    {
      config: { access: 'orders.cancel', idempotent: true },
      schema: { tags, params: idParams, body: returnInput, response: { 200: answer } },
    },
    async (request) => {
      const approver = await approvals.identify(request.body.approval, request.ip);
      return {
        message: await say(request, 'order.returned'),
        data: await service.giveBack(authOf(request), request.params.id, request.body, approver),
      };
    },
  );

  app.post(
    '/api/orders/:id/delivery',
    {
      config: { access: 'orders.update' },
      schema: { tags, params: idParams, body: deliveryInput, response: { 200: answer } },
    },
    async (request) => ({
      message: await say(request, 'order.delivery_moved'),
      data: await service.deliver(authOf(request), request.params.id, request.body.status),
    }),
  );
};
