import {
  coverageAreas,
  coverageInput,
  idParams,
  passwordResetInput,
  single,
  user,
  userCoverage,
  userStatusInput,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { coverageAreaRows } from './users.repository.ts';
import { usersService } from './users.service.ts';

/**
 * A user's status, password reset and coverage, and the areas to cover (the kit lists, shows,
 * creates, edits and deletes users: users.resources.ts).
 */
export const usersRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const users = usersService(db);

  app.put(
    '/api/users/:id/status',
    {
      config: { access: 'users.update' },
      schema: {
        tags: ['users'],
        summary: 'Disable (their sessions end at once) or enable a user. Not the last active administrator (422)',
        params: idParams,
        body: userStatusInput,
        response: { 200: written(user) },
      },
    },
    async (request) => {
      const data = await users.setStatus(authOf(request), request.params.id, request.body.status);
      return {
        message: await say(request, request.body.status === 'active' ? 'users.enabled' : 'users.disabled'),
        data,
      };
    },
  );

  app.post(
    '/api/users/:id/password',
    {
      config: { access: 'users.update' },
      schema: {
        tags: ['users'],
        summary: "Reset a user's password: they must choose a new one at their next sign-in; their sessions end",
        params: idParams,
        body: passwordResetInput,
        response: { 200: written(user) },
      },
    },
    async (request) => ({
      message: await say(request, 'users.password_reset'),
      data: await users.resetPassword(authOf(request), request.params.id, request.body.password as string),
    }),
  );

  app.get(
    '/api/users/:id/coverage',
    {
      config: { access: 'coverage.view' },
      schema: {
        tags: ['coverage'],
        summary: 'The stores, operational districts and health facilities a user covers',
        params: idParams,
        response: { 200: single(userCoverage) },
      },
    },
    async (request) => ({ data: await users.coverage(authOf(request), request.params.id) }),
  );

  app.put(
    '/api/users/:id/coverage',
    {
      config: { access: 'coverage.assign' },
      schema: {
        tags: ['coverage'],
        summary:
          'Replace what a user covers (their home store stays among their stores); takes effect on their next request',
        params: idParams,
        body: coverageInput,
        response: { 200: z.object({ message: z.string(), data: userCoverage }) },
      },
    },
    async (request) => ({
      message: await say(request, 'users.coverage_saved'),
      data: await users.setCoverage(authOf(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/api/coverage/areas',
    {
      config: { access: 'coverage.view' },
      schema: {
        tags: ['coverage'],
        summary: 'The areas a user can cover, as a tree: provinces → operational districts → health facilities',
        response: { 200: coverageAreas },
      },
    },
    async () => {
      const { provinces, districts, facilities } = await coverageAreaRows(db);
      const byDistrict = groupBy(facilities, (f) => f.operational_district_id);
      const byProvince = groupBy(districts, (d) => d.province_id);
      return {
        data: provinces
          .map((p) => ({
            ...p,
            operational_districts: (byProvince.get(p.id) ?? []).map(({ province_id: _, ...d }) => ({
              ...d,
              health_facilities: (byDistrict.get(d.id) ?? []).map(({ operational_district_id: __, ...f }) => f),
            })),
          }))
          .filter((p) => p.operational_districts.length > 0),
      };
    },
  );
};

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
