import { publicSettingsResponse } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SettingsService } from './settings.service.ts';

export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    '/api/settings/public',
    {
      config: { access: 'public' },
      schema: {
        tags: ['settings'],
        summary: 'Title, font, footer, logo, favicon and colours: what the login page needs',
        response: { 200: publicSettingsResponse },
      },
    },
    async () => ({ data: await settings.publicSettings() }),
  );
};
