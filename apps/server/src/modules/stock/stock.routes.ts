import {
  adjustmentInput,
  adjustmentResult,
  DEFAULT_EXPIRING_DAYS,
  idParams,
  lowStock,
  lowStockCount,
  MAX_ID,
  MOVEMENT_TYPES,
  paginated,
  single,
  stockBatch,
  stockLevel,
  stockMovement,
  todayInCambodia,
  transferDetail,
  transferInput,
  translate,
  writeOffInput,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { FieldError } from '../../http/errors.ts';
import { say } from '../../http/locale.ts';
import { pageAnswer } from '../../kit/resource.ts';
import { levelScope, movementScope, presentBatch, presentLevel, presentMovement } from '../../policies/stock.ts';
import { countLow, type Narrow } from './low.ts';
import { levelSorts, listBatches, listLevels, listLow, listMovements } from './stock.repository.ts';
import { stockService } from './stock.service.ts';
import { transferService } from './transfers.ts';

const page = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 50, 100].includes(n), { params: { message: 'validation.choice' } })
    .default(20),
};
const optionalId = z.coerce.number().int().min(1).max(MAX_ID).optional();
const search = z.string().trim().max(100).optional();
const tags = ['stock'];

const levelsQuery = z.object({
  ...page,
  search,
  sort: z.string().max(30).optional(),
  'filter[store_id]': optionalId,
  'filter[category_id]': optionalId,
  'filter[low]': z.enum(['true', 'false']).optional(),
});
const movementsQuery = z.object({
  ...page,
  'filter[product_id]': optionalId,
  'filter[store_id]': optionalId,
  'filter[type]': z.enum(MOVEMENT_TYPES).optional(),
  'filter[document_type]': z.string().max(20).optional(),
  'filter[document_id]': optionalId,
});
const batchesQuery = z.object({
  ...page,
  search,
  'filter[store_id]': optionalId,
  'filter[expired]': z.enum(['true', 'false']).optional(),
  'filter[expiring_days]': z.coerce.number().int().min(0).max(3650).optional(),
});
const lowQuery = z.object({ ...page, search, 'filter[store_id]': optionalId });

/** `YYYY-MM-DD` plus some days, in calendar arithmetic (no time zone can shift it). */
function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * Stock: levels, movements, batches, low stock, adjustments, expiry write-offs and transfers.
 * Reads need `stocks.list` (`stocks.view` for a movement history or a transfer); writes that change
 * stock by hand `stocks.create`; write-offs and every step of a transfer `stocks.update`.
 */
export const stockRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const stock = stockService(db);
  const moves = transferService(db);

  app.get(
    '/api/stocks/levels',
    {
      config: { access: 'stocks.list' },
      schema: { tags, querystring: levelsQuery, response: { 200: paginated(stockLevel) } },
    },
    async (request) => {
      const q = request.query;
      const sort = q.sort ?? (request.locale === 'kh' ? 'name_kh' : 'name_en');
      if (!levelSorts.includes(sort.replace(/^-/, ''))) throw new FieldError({ sort: [{ key: 'validation.sort' }] });
      const actor = authOf(request);
      const { data, total } = await listLevels(
        db,
        {
          scope: (query) => levelScope(query, actor),
          search: q.search,
          store_id: q['filter[store_id]'],
          category_id: q['filter[category_id]'],
          low: q['filter[low]'] === 'true',
          sort,
        },
        q,
      );
      return pageAnswer(
        request,
        q,
        data.map((level) => presentLevel(actor, level)),
        total,
      );
    },
  );

  app.get(
    '/api/stocks/movements',
    {
      config: { access: 'stocks.view' },
      schema: { tags, querystring: movementsQuery, response: { 200: paginated(stockMovement) } },
    },
    async (request) => {
      const q = request.query;
      const actor = authOf(request);
      const { data, total } = await listMovements(
        db,
        {
          scope: (query) => movementScope(query, actor),
          product_id: q['filter[product_id]'],
          store_id: q['filter[store_id]'],
          type: q['filter[type]'],
          document_type: q['filter[document_type]'],
          document_id: q['filter[document_id]'],
        },
        q,
      );
      return pageAnswer(
        request,
        q,
        data.map((movement) => presentMovement(actor, movement)),
        total,
      );
    },
  );

  app.post(
    '/api/stocks/adjustments',
    {
      config: { access: 'stocks.create', idempotent: true },
      schema: { tags, body: adjustmentInput, response: { 201: adjustmentResult } },
    },
    async (request, reply) => {
      const actor = authOf(request);
      const data = await stock.adjust(actor, request.body);
      return reply.code(201).send({
        message: await say(request, 'stock.adjusted'),
        data: { ...data, movements: data.movements.map((movement) => presentMovement(actor, movement)) },
      });
    },
  );

  app.get(
    '/api/stocks/batches',
    {
      config: { access: 'stocks.list' },
      schema: { tags, querystring: batchesQuery, response: { 200: paginated(stockBatch) } },
    },
    async (request) => {
      const q = request.query;
      const today = todayInCambodia();
      const days = q['filter[expiring_days]'];
      const actor = authOf(request);
      const { data, total } = await listBatches(
        db,
        {
          scope: (query) => levelScope(query, actor),
          search: q.search,
          store_id: q['filter[store_id]'],
          expired: q['filter[expired]'] === 'true',
          expiring_until:
            days !== undefined
              ? addDays(today, days)
              : q['filter[expired]'] === 'true'
                ? undefined
                : addDays(today, DEFAULT_EXPIRING_DAYS),
          today,
        },
        q,
      );
      return pageAnswer(
        request,
        q,
        data.map((batch) => presentBatch(actor, batch)),
        total,
      );
    },
  );

  app.post(
    '/api/stocks/write-offs',
    {
      config: { access: 'stocks.update', idempotent: true },
      schema: {
        tags,
        body: writeOffInput,
        response: { 201: written(z.object({ movements: z.array(stockMovement) })) },
      },
    },
    async (request, reply) => {
      const actor = authOf(request);
      const movements = await stock.writeOff(actor, request.body);
      return reply.code(201).send({
        message: await say(request, 'stock.written_off'),
        data: { movements: movements.map((movement) => presentMovement(actor, movement)) },
      });
    },
  );

  app.get(
    '/api/stocks/low',
    {
      config: { access: 'stocks.list' },
      schema: { tags, querystring: lowQuery, response: { 200: paginated(lowStock) } },
    },
    async (request) => {
      const q = request.query;
      const actor = authOf(request);
      const { data, total } = await listLow(
        db,
        { scope: (query) => levelScope(query, actor), search: q.search, store_id: q['filter[store_id]'] },
        q,
      );
      return pageAnswer(request, q, data, total);
    },
  );

  app.get(
    '/api/stocks/low/count',
    {
      config: { access: 'stocks.list' },
      schema: { tags, querystring: z.object({ 'filter[store_id]': optionalId }), response: { 200: lowStockCount } },
    },
    async (request) => {
      const actor = authOf(request);
      const scope: Narrow = (query) => levelScope(query, actor);
      return { data: { count: await countLow(db, scope, request.query['filter[store_id]']) } };
    },
  );

  // transfers: the list comes from the resource kit (transfers.ts); the steps are here
  const transferAnswer = written(transferDetail);
  app.get(
    '/api/stock-transfers/:id',
    {
      config: { access: 'stocks.view' },
      schema: { tags, params: idParams, response: { 200: single(transferDetail) } },
    },
    async (request) => ({ data: await moves.show(authOf(request), request.params.id) }),
  );
  app.post(
    '/api/stock-transfers',
    { config: { access: 'stocks.create' }, schema: { tags, body: transferInput, response: { 201: transferAnswer } } },
    async (request, reply) => {
      const data = await moves.create(authOf(request), request.body);
      const message = await say(request, 'resource.created', {
        entity: translate('entity.transfer', request.locale),
      });
      return reply.code(201).send({ message, data });
    },
  );
  app.put(
    '/api/stock-transfers/:id',
    {
      config: { access: 'stocks.update' },
      schema: { tags, params: idParams, body: transferInput, response: { 200: transferAnswer } },
    },
    async (request) => ({
      message: await say(request, 'resource.updated', { entity: translate('entity.transfer', request.locale) }),
      data: await moves.update(authOf(request), request.params.id, request.body),
    }),
  );
  for (const step of ['send', 'receive', 'cancel'] as const) {
    const done = { send: 'transfer.sent', receive: 'transfer.received', cancel: 'transfer.cancelled' } as const;
    app.post(
      `/api/stock-transfers/:id/${step}`,
      {
        config: { access: 'stocks.update', idempotent: true },
        schema: { tags, params: idParams, response: { 200: transferAnswer } },
      },
      async (request) => ({
        message: await say(request, done[step]),
        data: await moves[step](authOf(request), (request.params as { id: number }).id),
      }),
    );
  }
};
