import { countDetail, countInput, countScanInput, idParams, translate, written } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { countService } from './counts.ts';

const tags = ['stock'];
const answer = written(countDetail);

/**
 * Stock counts (issue 28): the list comes from the resource kit (counts.ts), the steps are here.
 * Reading needs stock_counts.view, starting one .create, scanning and submitting .update, sending
 * back, approving and cancelling .approve (and the count's store, for all of them: the policy).
 * Every step is keyed (Idempotency-Key): a phone retrying a scan counts it once.
 */
export const countRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = countService(db);

  app.get(
    '/api/stock-counts/:id',
    {
      config: { access: 'stock_counts.view' },
      schema: { tags, params: idParams, response: { 200: z.object({ data: countDetail }) } },
    },
    async (request) => ({ data: await service.show(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/stock-counts',
    {
      config: { access: 'stock_counts.create', idempotent: true },
      schema: { tags, body: countInput, response: { 201: answer } },
    },
    async (request, reply) => {
      const data = await service.create(authOf(request), request.body);
      const message = await say(request, 'resource.created', { entity: translate('entity.count', request.locale) });
      return reply.code(201).send({ message, data });
    },
  );

  app.post(
    '/api/stock-counts/:id/scans',
    {
      config: { access: 'stock_counts.update', idempotent: true },
      schema: { tags, params: idParams, body: countScanInput, response: { 200: answer } },
    },
    async (request) => {
      const { detail, line } = await service.scan(authOf(request), request.params.id, request.body);
      const product = request.locale === 'kh' ? line.product_name_kh : line.product_name_en;
      return { message: await say(request, 'count.counted', { product, counted: line.counted }), data: detail };
    },
  );

  const done = {
    submit: 'count.submitted',
    reopen: 'count.reopened',
    approve: 'count.approved',
    cancel: 'count.cancelled',
  } as const;
  for (const step of ['submit', 'reopen', 'approve', 'cancel'] as const) {
    const access = step === 'submit' ? 'stock_counts.update' : 'stock_counts.approve';
    app.post(
      `/api/stock-counts/:id/${step}`,
      {
        config: { access, idempotent: true },
        schema: { tags, params: idParams, response: { 200: answer } },
      },
      async (request) => ({
        message: await say(request, done[step]),
        data: await service[step](authOf(request), (request.params as { id: number }).id),
      }),
    );
  }
};
