import { sampleState, single, written } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import { say } from '../../http/locale.ts';
import type { SampleService } from './samples.service.ts';

/**
 * The sample data (/samples), an administrator's: its state (`samples.view`), a load
 * (`samples.generate`; loading again adds nothing) and its removal (`samples.delete`).
 */
export const sampleRoutes: FastifyPluginAsyncZod<{ samples: SampleService }> = async (app, { samples }) => {
  app.get(
    '/api/samples',
    {
      config: { access: 'samples.view' },
      schema: {
        tags: ['samples'],
        summary: 'Whether the sample data is loaded, when and by whom, and how many records it holds',
        response: { 200: single(sampleState) },
      },
    },
    async (request) => ({ data: await samples.state(authOf(request)) }),
  );

  app.post(
    '/api/samples',
    {
      config: { access: 'samples.generate' },
      schema: {
        tags: ['samples'],
        summary: 'Loads the sample data (a demo depot); when it is loaded already, adds nothing',
        response: { 200: written(sampleState) },
      },
    },
    async (request) => {
      const actor = authOf(request);
      const done = await samples.load(actor.userId);
      const message = done.loaded
        ? await say(request, 'samples.loaded', {
            products: done.products,
            purchases: done.purchases,
            orders: done.orders,
          })
        : await say(request, 'samples.already_loaded');
      return { message, data: await samples.state(actor) };
    },
  );

  app.delete(
    '/api/samples',
    {
      config: { access: 'samples.delete' },
      schema: {
        tags: ['samples'],
        summary: 'Removes everything the sample data created; refused while staff records use it',
        response: { 200: written(sampleState) },
      },
    },
    async (request) => {
      const actor = authOf(request);
      await samples.remove();
      return { message: await say(request, 'samples.removed'), data: await samples.state(actor) };
    },
  );
};
