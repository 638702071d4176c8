import { scaleSettings, single, written } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { auditWho } from '../audit/audit.ts';
import { readScaleSettings, writeScaleSettings } from './scale.settings.ts';

/**
 * The store's scale barcode layouts (contracts scale.ts): the till reads them (`products.list`,
 * who sells reads the catalogue) to read a label scale's barcodes, online and offline;
 * administrators (`settings.update`) change them.
 */
export const scaleRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['settings'];
  app.get(
    '/api/scale/settings',
    {
      config: { access: 'products.list' },
      schema: { tags, summary: 'The scale barcode layouts', response: { 200: single(scaleSettings) } },
    },
    async () => ({ data: await readScaleSettings(db) }),
  );

  app.put(
    '/api/scale/settings',
    {
      config: { access: 'settings.update' },
      schema: {
        tags,
        summary: 'Replaces the scale barcode layouts (prefix, code and value lengths, decimals, weight or price)',
        body: scaleSettings,
        response: { 200: written(scaleSettings) },
      },
    },
    async (request) => ({
      message: await say(request, 'settings.scale_saved'),
      data: await writeScaleSettings(db, request.body, auditWho(authOf(request))),
    }),
  );
};
