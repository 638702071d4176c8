import {
  creditAccount,
  creditReport,
  customerPayment,
  customerPaymentInput,
  idParams,
  numeralsFor,
  single,
  statement,
  statementQuery,
  supplierPayment,
  supplierPaymentInput,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import type { Actor } from '../../policies/policy.ts';
import { settingsService } from '../settings/settings.service.ts';
import { statementPdf } from './credit.pdf.ts';
import { creditService } from './credit.service.ts';

/**
 * Credit (rules in policies/credit.ts): a customer's and a supplier's account (balance,
 * ageing, open documents), statements for a period (JSON, or a PDF with `format=pdf`), payments on
 * account (idempotent with `Idempotency-Key`), receivables and payables with ageing.
 */
export const creditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = creditService(db);
  const tags = ['credit'];
  const storeQuery = z.object({ store_id: z.coerce.number().int().min(1).max(2_147_483_647).optional() });

  for (const party of ['customers', 'suppliers'] as const) {
    const statementOf = (actor: Actor, id: number, q: { from: string; to: string }) =>
      party === 'customers'
        ? service.customerStatement(actor, id, q.from, q.to)
        : service.supplierStatement(actor, id, q.from, q.to);
    app.get(
      `/api/${party}/:id/credit`,
      {
        config: { access: 'credit.view' },
        schema: { tags, params: idParams, response: { 200: single(creditAccount) } },
      },
      async (request) => {
        const actor = authOf(request);
        const id = request.params.id;
        return {
          data: await (party === 'customers' ? service.customerAccount(actor, id) : service.supplierAccount(actor, id)),
        };
      },
    );

    app.get(
      `/api/${party}/:id/statement`,
      {
        config: { access: 'credit.view' },
        schema: { tags, params: idParams, querystring: statementQuery, response: { 200: single(statement) } },
      },
      async (request) => ({ data: await statementOf(authOf(request), request.params.id, request.query) }),
    );

    app.get(
      `/api/${party}/:id/statement/pdf`,
      {
        config: { access: 'credit.view' },
        schema: {
          tags,
          summary: 'The statement as an A4 PDF in the reader’s language (Khmer shaped, printed by Chromium)',
          params: idParams,
          querystring: statementQuery,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const data = await statementOf(authOf(request), id, request.query);
        const { khmer_numerals } = await settingsService(db).publicSettings();
        const pdf = await statementPdf(data, request.locale, numeralsFor(khmer_numerals, request.locale));
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="statement-${id}-${data.from}-${data.to}.pdf"`)
          .header('cache-control', 'no-store')
          .send(pdf);
      },
    );
  }

  app.post(
    '/api/customers/:id/payments',
    {
      config: { access: 'credit.create', idempotent: true },
      schema: { tags, params: idParams, body: customerPaymentInput, response: { 201: written(customerPayment) } },
    },
    async (request, reply) => {
      const data = await service.payCustomer(authOf(request), request.params.id, request.body);
      return reply.code(201).send({ message: await say(request, 'credit.paid', { number: data.number }), data });
    },
  );

  // as paying one purchase: purchases.approve (and costs.view, in the service)
  app.post(
    '/api/suppliers/:id/payments',
    {
      config: { access: 'purchases.approve', idempotent: true },
      schema: { tags, params: idParams, body: supplierPaymentInput, response: { 201: written(supplierPayment) } },
    },
    async (request, reply) => {
      const data = await service.paySupplier(authOf(request), request.params.id, request.body);
      const message = await say(request, 'credit.supplier_paid', {
        amount: { usd: data.amount_cents },
        count: data.allocations.length,
      });
      return reply.code(201).send({ message, data });
    },
  );

  app.get(
    '/api/customer-payments/:id',
    {
      config: { access: 'credit.view' },
      schema: { tags, params: idParams, response: { 200: single(customerPayment) } },
    },
    async (request) => ({ data: await service.showPayment(authOf(request), request.params.id) }),
  );

  app.get(
    '/api/credit/receivables',
    {
      config: { access: 'credit.view' },
      schema: { tags, querystring: storeQuery, response: { 200: single(creditReport) } },
    },
    async (request) => ({ data: await service.receivables(authOf(request), request.query.store_id ?? null) }),
  );
  app.get(
    '/api/credit/payables',
    {
      config: { access: 'credit.view' },
      schema: { tags, querystring: storeQuery, response: { 200: single(creditReport) } },
    },
    async (request) => ({ data: await service.payables(authOf(request), request.query.store_id ?? null) }),
  );
};
