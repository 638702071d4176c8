import {
  idParams,
  type MessageKey,
  purchaseDetail,
  purchaseInput,
  purchasePaymentInput,
  receiveInput,
  single,
  translate,
  written,
} from '@depot/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { purchaseService } from './purchases.service.ts';

const tags = ['purchases'];
const answer = written(purchaseDetail);

/**
 * Purchases: the list is the resource kit's (purchases.resources.ts); the detail and every step
 * are here. Creating, editing, ordering and receiving need `purchases.create` / `purchases.update`
 * (a stock keeper's work); paying the supplier needs `purchases.approve`, since money leaving the
 * depot is a manager's decision; cancelling needs `purchases.cancel`. Every one of them also needs
 * `costs.view` and the purchase's store (policies/purchases.ts).
 */
export const purchaseRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const purchases = purchaseService(db);
  const done = (request: FastifyRequest, key: MessageKey) =>
    say(request, key, { entity: translate('entity.purchase', request.locale) });

  app.get(
    '/api/purchases/:id',
    {
      config: { access: 'purchases.view' },
      schema: { tags, params: idParams, response: { 200: single(purchaseDetail) } },
    },
    async (request) => ({ data: await purchases.show(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/purchases',
    {
      config: { access: 'purchases.create', idempotent: true },
      schema: { tags, body: purchaseInput, response: { 201: answer } },
    },
    async (request, reply) => {
      const data = await purchases.create(authOf(request), request.body);
      return reply.code(201).send({ message: await done(request, 'resource.created'), data });
    },
  );

  app.put(
    '/api/purchases/:id',
    {
      config: { access: 'purchases.update' },
      schema: { tags, params: idParams, body: purchaseInput, response: { 200: answer } },
    },
    async (request) => ({
      message: await done(request, 'resource.updated'),
      data: await purchases.update(authOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/purchases/:id/order',
    { config: { access: 'purchases.update' }, schema: { tags, params: idParams, response: { 200: answer } } },
    async (request) => ({
      message: await done(request, 'purchase.ordered'),
      data: await purchases.order(authOf(request), request.params.id),
    }),
  );

  app.post(
    '/api/purchases/:id/receive',
    {
      config: { access: 'purchases.update', idempotent: true },
      schema: { tags, params: idParams, body: receiveInput, response: { 200: answer } },
    },
    async (request) => ({
      message: await done(request, 'purchase.received'),
      data: await purchases.receive(authOf(request), request.params.id, request.body),
    }),
  );

  // paying a supplier is a manager's job: purchases.approve, not purchases.update
  app.post(
    '/api/purchases/:id/payments',
    {
      config: { access: 'purchases.approve', idempotent: true },
      schema: { tags, params: idParams, body: purchasePaymentInput, response: { 201: answer } },
    },
    async (request, reply) => {
      const data = await purchases.pay(authOf(request), request.params.id, request.body);
      return reply.code(201).send({ message: await done(request, 'purchase.paid'), data });
    },
  );

  app.post(
    '/api/purchases/:id/cancel',
    { config: { access: 'purchases.cancel' }, schema: { tags, params: idParams, response: { 200: answer } } },
    async (request) => ({
      message: await done(request, 'purchase.cancelled'),
      data: await purchases.cancel(authOf(request), request.params.id),
    }),
  );
};
