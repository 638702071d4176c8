import {
  comboDetail,
  comboInput,
  comboPreview,
  comboPreviewQuery,
  idParams,
  type MessageKey,
  single,
  translate,
  written,
} from '@depot/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { comboService } from './combos.service.ts';

const tags = ['combos'];
const answer = written(comboDetail);

/**
 * Combos: the list is the resource kit's (combos.resources.ts); the detail, the writes and the
 * preview are here, each answering the combo with its items and money as the server computes them.
 */
export const comboRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const combos = comboService(db);
  const done = (request: FastifyRequest, key: MessageKey) =>
    say(request, key, { entity: translate('entity.combo', request.locale) });

  // registered before `/:id` routes of the same method, and a path no id can take
  app.post(
    '/api/combos/preview',
    {
      config: { access: 'combos.create' },
      schema: {
        tags,
        summary: 'The combo a body would make (items priced, cost, profit, margin), without saving it',
        querystring: comboPreviewQuery,
        body: comboInput,
        response: { 200: single(comboPreview) },
      },
    },
    async (request) => ({
      data: await combos.preview(authOf(request), request.body, request.query.combo_id),
    }),
  );

  app.get(
    '/api/combos/:id',
    { config: { access: 'combos.view' }, schema: { tags, params: idParams, response: { 200: single(comboDetail) } } },
    async (request) => ({ data: await combos.show(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/combos',
    { config: { access: 'combos.create' }, schema: { tags, body: comboInput, response: { 201: answer } } },
    async (request, reply) => {
      const data = await combos.create(authOf(request), request.body);
      return reply.code(201).send({ message: await done(request, 'resource.created'), data });
    },
  );

  app.put(
    '/api/combos/:id',
    {
      config: { access: 'combos.update' },
      schema: { tags, params: idParams, body: comboInput, response: { 200: answer } },
    },
    async (request) => ({
      message: await done(request, 'resource.updated'),
      data: await combos.update(authOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/combos/:id',
    { config: { access: 'combos.delete' }, schema: { tags, params: idParams, response: { 200: answer } } },
    async (request) => ({
      message: await done(request, 'resource.deleted'),
      data: await combos.remove(authOf(request), request.params.id),
    }),
  );

  app.post(
    '/api/combos/:id/restore',
    { config: { access: 'combos.restore' }, schema: { tags, params: idParams, response: { 200: answer } } },
    async (request) => ({
      message: await done(request, 'resource.restored'),
      data: await combos.restore(authOf(request), request.params.id),
    }),
  );
};
