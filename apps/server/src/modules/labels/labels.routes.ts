import {
  labelItems,
  labelSettings,
  labelsInput,
  labelsPrintInput,
  priceChangesQuery,
  printResult,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { FieldError, forbidden } from '../../http/errors.ts';
import { say } from '../../http/locale.ts';
import type { NetworkGuard } from '../../http/network-guard.ts';
import { printPdf, printPng } from '../../kit/pdf.ts';
import { can } from '../../policies/policy.ts';
import { auditWho } from '../audit/audit.ts';
import { printingService } from '../printing/printing.service.ts';
import {
  cellsOf,
  labelsOf,
  priceChangesSince,
  readLabelSettings,
  rollHtml,
  sheetHtml,
  writeLabelSettings,
} from './labels.service.ts';

/** At most this many labels on a roll in one print (a job stays within the raster's height). */
const ROLL_MAX = 40;

/**
 * Barcode labels and shelf tags (`products.generate`): on A4 label sheets as a PDF (kit/pdf.ts), or
 * on a store's label or receipt printer (the raster pipeline, modules/printing). The sheets are
 * the settings' (`GET /api/labels/settings`; `PUT` with settings.update). Price changes since a day
 * give the products to tag.
 */
export const labelsRoutes: FastifyPluginAsyncZod<{ db: Db; timeoutMs: number; guard: NetworkGuard }> = async (
  app,
  { db, timeoutMs, guard },
) => {
  const printing = printingService(db, { timeoutMs, guard });
  const tags = ['labels'];

  app.get(
    '/api/labels/settings',
    { config: { access: 'products.generate' }, schema: { tags, response: { 200: single(labelSettings) } } },
    async () => ({ data: await readLabelSettings(db) }),
  );

  app.put(
    '/api/labels/settings',
    {
      config: { access: 'settings.update' },
      schema: { tags, body: labelSettings, response: { 200: written(labelSettings) } },
    },
    async (request) => ({
      message: await say(request, 'label.settings_saved'),
      data: await writeLabelSettings(db, request.body, auditWho(authOf(request))),
    }),
  );

  app.get(
    '/api/labels/price-changes',
    {
      config: { access: 'products.generate' },
      schema: {
        tags,
        summary: 'Products whose selling price changed, or that were added, since a day: one shelf tag each',
        querystring: priceChangesQuery,
        response: { 200: labelItems },
      },
    },
    async (request) => priceChangesSince(db, request.query.since),
  );

  app.post(
    '/api/labels/pdf',
    {
      config: { access: 'products.generate' },
      schema: { tags, summary: 'Barcode labels or shelf tags on A4 label sheets, as a PDF', body: labelsInput },
    },
    async (request, reply) => {
      const input = request.body;
      const settings = await readLabelSettings(db);
      const sheet = input.sheet ?? (input.kind === 'tag' ? settings.tag_sheet : settings.barcode_sheet);
      if (input.skip >= cellsOf(sheet)) {
        throw new FieldError({ skip: [{ key: 'label.skip_too_many', params: { cells: cellsOf(sheet) } }] });
      }
      const labels = await labelsOf(db, authOf(request), input);
      const pdf = await printPdf(await sheetHtml(input.kind, sheet, labels, input.skip), {
        unavailable: 'label.pdf_unavailable',
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${input.kind === 'tag' ? 'shelf-tags' : 'labels'}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.post(
    '/api/labels/print',
    {
      config: { access: 'products.generate' },
      schema: {
        tags,
        summary: 'Barcode labels or shelf tags on a store’s label or receipt printer',
        body: labelsPrintInput,
        response: { 200: written(printResult) },
      },
    },
    async (request) => {
      const input = request.body;
      const count = input.items.reduce((sum, item) => sum + item.quantity, 0);
      if (count > ROLL_MAX) throw new FieldError({ items: [{ key: 'label.too_many' }] });
      const auth = authOf(request);
      // printing on a printer is the till's permission too
      if (!can(auth, 'printers.generate')) throw forbidden();
      // the printer is judged (its store covered, active) before any product gets a barcode
      const { name, result } = await printing.printPicture(
        input.printer_id,
        async (dots) =>
          printPng(await rollHtml(input.kind, await labelsOf(db, auth, input), dots), {
            unavailable: 'label.pdf_unavailable',
            width: dots,
          }),
        auth,
      );
      return { message: await say(request, 'label.printed', { name, count }), data: result };
    },
  );
};
