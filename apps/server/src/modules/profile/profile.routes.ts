import { idParams, profile, profileInput, single, userImage, written } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import { say } from '../../http/locale.ts';
import { readImage } from '../../kit/images.ts';
import { printPdf } from '../../kit/pdf.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { pictureData, profileHtml } from './profile.pdf.ts';
import type { ProfileService } from './profile.service.ts';

/**
 * The signed-in user's own profile (`profiles.view` / `profiles.update`, which every role holds),
 * its PDF, and a user's picture (their own, or anyone's with `users.update`).
 */
export const profileRoutes: FastifyPluginAsyncZod<{
  profiles: ProfileService;
  settings: SettingsService;
  uploadsDir: string;
}> = async (app, { profiles, settings, uploadsDir }) => {
  app.get(
    '/api/profile',
    {
      config: { access: 'profiles.view' },
      schema: { tags: ['profile'], summary: 'The signed-in user’s profile', response: { 200: single(profile) } },
    },
    async (request) => ({ data: await profiles.show(authOf(request)) }),
  );

  app.put(
    '/api/profile',
    {
      config: { access: 'profiles.update' },
      schema: {
        tags: ['profile'],
        summary: 'Changes the signed-in user’s contact and profile extras',
        body: profileInput,
        response: { 200: written(profile) },
      },
    },
    async (request) => ({
      message: await say(request, 'profile.saved'),
      data: await profiles.update(authOf(request), request.body),
    }),
  );

  app.get(
    '/api/profile/pdf',
    {
      config: { access: 'profiles.view' },
      schema: {
        tags: ['profile'],
        summary: 'The profile as an A4 PDF in the request’s language (X-Localization); 409 without Chromium',
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const data = await profiles.show(authOf(request));
      const current = await settings.publicSettings();
      const html = await profileHtml(
        data,
        current,
        request.locale,
        {
          picture: await pictureData(uploadsDir, data.profile_image),
          logo: await pictureData(uploadsDir, current.logo_url),
        },
        new Date().toISOString(),
      );
      const pdf = await printPdf(html, { unavailable: 'profile.pdf_unavailable' });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="profile-${data.name.replace(/[^\w.-]/g, '_')}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.post(
    '/api/users/:id/image',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Uploads a user’s picture (multipart `image`): one’s own, or anyone’s with users.update',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: written(userImage) },
      },
    },
    async (request) => {
      const actor = authOf(request);
      await profiles.pictureOwner(actor, request.params.id); // refused before the upload is read
      const bytes = await readImage(request);
      return {
        message: await say(request, 'settings.image_saved'),
        data: await profiles.setPicture(actor, request.params.id, bytes),
      };
    },
  );

  app.delete(
    '/api/users/:id/image',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Removes a user’s picture: one’s own, or anyone’s with users.update',
        params: idParams,
        response: { 200: written(userImage) },
      },
    },
    async (request) => ({
      message: await say(request, 'settings.image_removed'),
      data: await profiles.removePicture(authOf(request), request.params.id),
    }),
  );
};
