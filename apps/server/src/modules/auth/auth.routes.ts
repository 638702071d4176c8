import {
  authErrorResponse,
  loginBody,
  loginResponse,
  meResponse,
  messageResponse,
  passwordChangeInput,
  refreshBody,
  refreshResponse,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import { say } from '../../http/locale.ts';
import { type AuthService, meAnswer } from './auth.service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/api/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a name and a password',
        body: loginBody,
        response: { 200: loginResponse, 401: authErrorResponse, 403: authErrorResponse, 429: authErrorResponse },
      },
    },
    (request) =>
      auth.login(request.body.name, request.body.password, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      }),
  );

  app.post(
    '/api/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new token pair (the old refresh token stops working)',
        body: refreshBody,
        response: { 200: refreshResponse, 401: authErrorResponse },
      },
    },
    (request) =>
      auth.refresh(request.body.refresh_token, { ip: request.ip, userAgent: request.headers['user-agent'] ?? null }),
  );

  app.post(
    '/api/logout',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Revoke this sign-in', response: { 200: messageResponse } },
    },
    async (request) => {
      await auth.logout(authOf(request).sessionId);
      return { message: await say(request, 'auth.logged_out') };
    },
  );

  app.get(
    '/api/me',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user, their roles, permissions and the stores they cover',
        response: { 200: meResponse },
      },
    },
    async (request) => meAnswer(authOf(request)),
  );

  app.post(
    '/api/me/password',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary:
          'Change your own password (the current one first; at least 8 characters, confirmed): clears "must change at next sign-in" and ends your other sign-ins',
        body: passwordChangeInput,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const body = request.body;
      await auth.changePassword(authOf(request), body.current_password, body.password as string);
      return { message: await say(request, 'auth.password_changed') };
    },
  );
};
