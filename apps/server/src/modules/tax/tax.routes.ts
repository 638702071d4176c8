import {
  debitNoteInput,
  idParams,
  listQuery,
  MAX_ID,
  OFFICIAL_RATE_KINDS,
  officialRate,
  officialRateInput,
  paginated,
  single,
  TAX_DOCUMENT_KINDS,
  taxDocumentDetail,
  taxDocumentInput,
  taxDocumentSummary,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { say } from '../../http/locale.ts';
import { pageAnswer } from '../../kit/resource.ts';
import { pullNbcRate, type RateFeedConfig, RateFeedFailed } from './tax.feed.ts';
import { taxService } from './tax.service.ts';

const id = z.coerce.number().int().min(1).max(MAX_ID);
const listParams = listQuery.pick({ page: true, per_page: true, search: true }).extend({
  'filter[kind]': z.enum(TAX_DOCUMENT_KINDS).optional(),
  'filter[store_id]': id.optional(),
  'filter[order_id]': id.optional(),
});
const officialParams = listQuery.pick({ page: true, per_page: true }).extend({
  'filter[kind]': z.enum(OFFICIAL_RATE_KINDS).optional(),
});

/**
 * Tax documents (issue 27): listed and read with `tax_documents.list`/`.view` in the actor's
 * stores; a sale's invoice issued with `tax_documents.create`; a debit note with
 * `tax_documents.approve` (policies/taxDocuments.ts). Both writes take an Idempotency-Key. The
 * published rates (NBC daily, GDT monthly) are exchange rates: read with `exchange_rates.view`,
 * entered or fetched with `exchange_rates.update`.
 */
export const taxRoutes: FastifyPluginAsyncZod<{ db: Db; rateFeed: RateFeedConfig | null }> = async (
  app,
  { db, rateFeed },
) => {
  const service = taxService(db);
  const tags = ['tax_documents'];

  app.get(
    '/api/tax-documents',
    {
      config: { access: 'tax_documents.list' },
      schema: {
        tags,
        summary: 'Tax and commercial invoices, credit and debit notes of the user’s stores, newest first',
        querystring: listParams,
        response: { 200: paginated(taxDocumentSummary) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await service.list(authOf(request), {
        page: q.page,
        per_page: q.per_page,
        search: q.search,
        kind: q['filter[kind]'],
        store_id: q['filter[store_id]'],
        order_id: q['filter[order_id]'],
      });
      return pageAnswer(request, q, rows, total);
    },
  );

  app.get(
    '/api/tax-documents/:id',
    {
      config: { access: 'tax_documents.view' },
      schema: {
        tags,
        summary: 'A tax document as issued: seller, buyer, lines, taxes, riel total and rate; its notes',
        params: idParams,
        response: { 200: single(taxDocumentDetail) },
      },
    },
    async (request) => ({ data: await service.detail(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/tax-documents',
    {
      config: { access: 'tax_documents.create', idempotent: true },
      schema: {
        tags,
        summary: 'Issue a sale’s invoice: a tax invoice for a VAT-registered buyer, else a commercial invoice',
        body: taxDocumentInput,
        response: { 201: written(taxDocumentDetail) },
      },
    },
    async (request, reply) => {
      const data = await service.issue(authOf(request), request.body);
      const kind = await say(request, `tax.kind.${data.kind}`);
      const message = await say(request, 'tax.issued', { kind, number: data.number });
      return reply.code(201).send({ message, data });
    },
  );

  app.post(
    '/api/tax-documents/:id/debit-notes',
    {
      config: { access: 'tax_documents.approve', idempotent: true },
      schema: {
        tags,
        summary: 'Issue a debit note against an invoice: a price correction upward, with its reason and lines',
        params: idParams,
        body: debitNoteInput,
        response: { 201: written(taxDocumentDetail) },
      },
    },
    async (request, reply) => {
      const data = await service.debit(authOf(request), request.params.id, request.body);
      const kind = await say(request, `tax.kind.${data.kind}`);
      const message = await say(request, 'tax.issued', { kind, number: data.number });
      return reply.code(201).send({ message, data });
    },
  );

  app.get(
    '/api/official-rates',
    {
      config: { access: 'exchange_rates.view' },
      schema: {
        tags: ['exchange_rates'],
        summary: 'The published rates kept: the NBC’s daily and the GDT’s monthly, newest first',
        querystring: officialParams,
        response: { 200: paginated(officialRate) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await service.officialRates(q, q['filter[kind]']);
      return pageAnswer(request, q, rows, total);
    },
  );

  app.post(
    '/api/official-rates',
    {
      config: { access: 'exchange_rates.update' },
      schema: {
        tags: ['exchange_rates'],
        summary: 'Enter a published rate by hand: the NBC’s of a day or the GDT’s of a month',
        body: officialRateInput,
        response: { 201: written(officialRate) },
      },
    },
    async (request, reply) => {
      const data = await service.recordOfficial(authOf(request), request.body);
      return reply
        .code(201)
        .send({ message: await say(request, 'rate.official_saved', { rate: data.rate_khr }), data });
    },
  );

  app.post(
    '/api/official-rates/fetch',
    {
      config: { access: 'exchange_rates.update' },
      schema: {
        tags: ['exchange_rates'],
        summary: 'Fetch the NBC’s rate from the configured feed now',
        response: { 200: written(officialRate) },
      },
    },
    async (request) => {
      if (!rateFeed) throw new AppError(409, 'rate.feed_off');
      try {
        const data = await pullNbcRate(db, rateFeed);
        return { message: await say(request, 'rate.feed_fetched', { date: data.date, rate: data.rate_khr }), data };
      } catch (error) {
        if (error instanceof RateFeedFailed) throw new AppError(502, 'rate.feed_failed');
        throw error;
      }
    },
  );
};
