import {
  publicSettings,
  publicSettingsResponse,
  SETTINGS_IMAGES,
  settingsInput,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import { say } from '../../http/locale.ts';
import { readImage } from '../../kit/images.ts';
import { auditWho } from '../audit/audit.ts';
import type { SettingsService } from './settings.service.ts';

const imageParams = z.object({ kind: z.enum(SETTINGS_IMAGES) });

/**
 * System settings. Anyone reads the public part (the login page needs the title, colours and
 * logo); administrators (`settings.update`) change them, upload the logo and the favicon.
 */
export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    '/api/settings/public',
    {
      config: { access: 'public' },
      schema: {
        tags: ['settings'],
        summary: 'Title, font, footer, logo, favicon, colours and the business details printed on receipts',
        response: { 200: publicSettingsResponse },
      },
    },
    async () => ({ data: await settings.publicSettings() }),
  );

  app.get(
    '/api/settings',
    {
      config: { access: 'settings.view' },
      schema: {
        tags: ['settings'],
        summary: 'The system settings, to edit',
        response: { 200: single(publicSettings) },
      },
    },
    async () => ({ data: await settings.publicSettings() }),
  );

  app.put(
    '/api/settings',
    {
      config: { access: 'settings.update' },
      schema: {
        tags: ['settings'],
        summary: 'Changes the system settings; open pages apply them at once (SettingsUpdated on the depot channel)',
        body: settingsInput,
        response: { 200: written(publicSettings) },
      },
    },
    async (request) => ({
      message: await say(request, 'settings.saved'),
      data: await settings.update(request.body, auditWho(authOf(request))),
    }),
  );

  app.post(
    '/api/settings/:kind',
    {
      config: { access: 'settings.update' },
      schema: {
        tags: ['settings'],
        summary: 'Uploads the logo or the favicon (multipart `image`: JPEG, PNG or WebP, at most 5 MB)',
        consumes: ['multipart/form-data'],
        params: imageParams,
        response: { 200: written(publicSettings) },
      },
    },
    async (request) => {
      const bytes = await readImage(request);
      return {
        message: await say(request, 'settings.image_saved'),
        data: await settings.setImage(request.params.kind, bytes, auditWho(authOf(request))),
      };
    },
  );

  app.delete(
    '/api/settings/:kind',
    {
      config: { access: 'settings.update' },
      schema: {
        tags: ['settings'],
        summary: 'Removes the logo or the favicon',
        params: imageParams,
        response: { 200: written(publicSettings) },
      },
    },
    async (request) => ({
      message: await say(request, 'settings.image_removed'),
      data: await settings.removeImage(request.params.kind, auditWho(authOf(request))),
    }),
  );
};
