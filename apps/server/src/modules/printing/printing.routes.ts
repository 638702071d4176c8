import { idParams, printJobInput, printResult, written } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import type { NetworkGuard } from '../../http/network-guard.ts';
import { printingService } from './printing.service.ts';

/**
 * `POST /api/printers/{id}/print` (`printers.generate`): a rendered document to a configured
 * printer. `POST /api/printers/{id}/drawer` (`printers.approve`): open the cash drawer by hand.
 * A printer that does not answer within the timeout is a 504 with a localized message.
 */
export const printingRoutes: FastifyPluginAsyncZod<{ db: Db; timeoutMs: number; guard: NetworkGuard }> = async (
  app,
  { db, timeoutMs, guard },
) => {
  const service = printingService(db, { timeoutMs, guard });
  const tags = ['printers'];

  app.post(
    '/api/printers/:id/print',
    {
      config: { access: 'printers.generate' },
      // a receipt's PNG in base64 is tens of kilobytes; a long report a few hundred
      bodyLimit: 6 * 1024 * 1024,
      schema: { tags, params: idParams, body: printJobInput, response: { 200: written(printResult) } },
    },
    async (request) => {
      const { name, result } = await service.print(request.params.id, request.body, authOf(request));
      return { message: await say(request, 'printer.printed', { name }), data: result };
    },
  );

  app.post(
    '/api/printers/:id/drawer',
    {
      config: { access: 'printers.approve' },
      schema: { tags, params: idParams, response: { 200: written(z.object({ printer_id: z.number().int() })) } },
    },
    async (request) => {
      const { name } = await service.openDrawer(request.params.id, authOf(request));
      return {
        message: await say(request, 'printer.drawer_opened', { name }),
        data: { printer_id: request.params.id },
      };
    },
  );
};
