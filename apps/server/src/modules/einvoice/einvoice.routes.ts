import {
  einvoiceBusiness,
  einvoiceConnectInput,
  einvoiceConnection,
  einvoiceConnectStart,
  einvoiceDocumentStatus,
  einvoiceKindParams,
  einvoiceListQuery,
  einvoiceStartInput,
  idParams,
  purchaseDetail,
  receivedEInvoice,
  receivedToPurchaseInput,
  single,
  tinLookupQuery,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import { say } from '../../http/locale.ts';
import { can } from '../../policies/policy.ts';
import type { EInvoicing } from './einvoice.service.ts';

const tags = ['einvoicing'];

/**
 * CamInvoice. The connection is an administrator's (`settings.update`; `settings.view` reads its
 * state, without the webhook's address); documents' statuses follow `invoices.*` and the
 * document's store; received e-invoices are purchases' (`purchases.*`, and the purchase's own
 * checks); the TIN lookup is the customer form's (`customers.create`). The webhook is public and
 * authenticated by its secret path; what it says is read again from CamInvoice.
 */
export const einvoiceRoutes: FastifyPluginAsyncZod<{ einvoicing: EInvoicing }> = async (app, { einvoicing }) => {
  const { connection, received } = einvoicing;

  const shown = async (request: Parameters<typeof authOf>[0]) => {
    const status = await connection.status();
    return can(authOf(request), 'settings.update') ? status : { ...status, webhook_url: '' };
  };

  app.get(
    '/api/caminvoice/connection',
    { config: { access: 'settings.view' }, schema: { tags, response: { 200: single(einvoiceConnection) } } },
    async (request) => ({ data: await shown(request) }),
  );

  app.post(
    '/api/caminvoice/connection/start',
    {
      config: { access: 'settings.update' },
      schema: { tags, body: einvoiceStartInput, response: { 200: single(einvoiceConnectStart) } },
    },
    async (request) => ({
      data: { authorize_url: await connection.start(authOf(request), request.body.redirect_url) },
    }),
  );

  app.post(
    '/api/caminvoice/connection',
    {
      config: { access: 'settings.update' },
      schema: { tags, body: einvoiceConnectInput, response: { 200: written(einvoiceConnection) } },
    },
    async (request) => {
      const data = await connection.finish(authOf(request), request.body.callback_url);
      const name = data.company_name_kh ?? data.company_name_en ?? data.endpoint_id ?? '';
      return { message: await say(request, 'einvoice.connected', { name }), data };
    },
  );

  app.delete(
    '/api/caminvoice/connection',
    { config: { access: 'settings.update' }, schema: { tags, response: { 200: written(einvoiceConnection) } } },
    async (request) => ({
      message: await say(request, 'einvoice.disconnected'),
      data: await connection.disconnect(authOf(request)),
    }),
  );

  app.post(
    '/api/caminvoice/webhook/:secret',
    {
      config: { access: 'public' },
      schema: {
        tags,
        params: z.object({ secret: z.string().max(200) }),
        body: z
          .object({
            type: z.string().max(100).optional(),
            event_type: z.string().max(100).optional(),
            document_id: z.string().max(100).nullish(),
            endpoint_id: z.string().max(100).nullish(),
          })
          .passthrough(),
        response: { 200: z.object({ result: z.enum(['done', 'ignored']) }), 404: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      if (!einvoicing.webhookAllowed(request.params.secret)) {
        return reply.code(404).send({ message: await say(request, 'error.not_found') });
      }
      const body = request.body;
      const result = await einvoicing.webhook({
        type: String(body.type ?? body.event_type ?? ''),
        document_id: body.document_id ?? null,
        endpoint_id: body.endpoint_id ?? null,
      });
      return { result };
    },
  );

  app.get(
    '/api/einvoices',
    {
      config: { access: 'tax_documents.list' },
      schema: { tags, querystring: einvoiceListQuery, response: { 200: single(z.array(einvoiceDocumentStatus)) } },
    },
    async (request) => ({
      data: await einvoicing.list(authOf(request), request.query.status, request.query.page),
    }),
  );

  app.get(
    '/api/einvoices/:kind/:id',
    {
      config: { access: 'tax_documents.view' },
      schema: { tags, params: einvoiceKindParams, response: { 200: single(einvoiceDocumentStatus) } },
    },
    async (request) => ({
      data: await einvoicing.status(authOf(request), request.params.kind, request.params.id),
    }),
  );

  app.post(
    '/api/einvoices/:kind/:id/submit',
    {
      config: { access: 'tax_documents.approve' },
      schema: { tags, params: einvoiceKindParams, response: { 200: written(einvoiceDocumentStatus) } },
    },
    async (request) => {
      const data = await einvoicing.queue(authOf(request), request.params.kind, request.params.id);
      return { message: await say(request, 'einvoice.queued', { number: data.number }), data };
    },
  );

  app.get(
    '/api/caminvoice/businesses',
    {
      config: { access: 'customers.create' },
      schema: { tags, querystring: tinLookupQuery, response: { 200: single(einvoiceBusiness) } },
    },
    async (request) => ({ data: await einvoicing.lookup(request.query.tin) }),
  );

  app.get(
    '/api/einvoices/received',
    {
      config: { access: 'purchases.list' },
      schema: { tags, response: { 200: single(z.array(receivedEInvoice)) } },
    },
    async () => ({ data: await received.list() }),
  );

  app.get(
    '/api/einvoices/received/:id',
    {
      config: { access: 'purchases.view' },
      schema: { tags, params: idParams, response: { 200: single(receivedEInvoice) } },
    },
    async (request) => ({ data: await received.show(request.params.id) }),
  );

  app.post(
    '/api/einvoices/received/:id/purchase',
    {
      config: { access: 'purchases.create' },
      schema: { tags, params: idParams, body: receivedToPurchaseInput, response: { 201: written(purchaseDetail) } },
    },
    async (request, reply) => {
      const data = await received.toPurchase(authOf(request), request.params.id, request.body);
      return reply
        .code(201)
        .send({ message: await say(request, 'einvoice.purchase_made', { number: data.number }), data });
    },
  );
};
