import {
  ACTIONS,
  coverageAreas,
  coverageInput,
  idParams,
  PERMISSIONS,
  passwordResetInput,
  permissionMatrix,
  RESOURCES,
  role,
  roleInput,
  roleMembersInput,
  single,
  translate,
  user,
  userCoverage,
  userInput,
  userStatusInput,
  written,
} from '@depot/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { grantable } from '../../policies/roles.ts';
import { rolesService } from '../roles/roles.service.ts';
import { coverageAreaRows } from './users.repository.ts';
import { usersService } from './users.service.ts';

/**
 * Users' writes (the kit lists and shows them: users.resources.ts), their coverage, roles with their
 * permission matrix and members.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const users = usersService(db);
  const roles = rolesService(db);
  const said = (
    key: 'resource.created' | 'resource.updated' | 'resource.deleted',
    request: FastifyRequest,
    entity: 'entity.user' | 'entity.role',
  ) => say(request, key, { entity: translate(entity, request.locale) });

  app.post(
    '/api/users',
    {
      config: { access: 'users.create' },
      schema: {
        tags: ['users'],
        summary:
          'Create a user: sign-in name, password (min 8, confirmed), profile, home store, stores, roles (roles.assign)',
        body: userInput,
        response: { 201: written(user) },
      },
    },
    async (request, reply) => {
      const data = await users.create(authOf(request), request.body);
      return reply.code(201).send({ message: await said('resource.created', request, 'entity.user'), data });
    },
  );

  app.put(
    '/api/users/:id',
    {
      config: { access: 'users.update' },
      schema: {
        tags: ['users'],
        summary:
          'Update a user (an empty password keeps it). Refused (422) when it would leave no active administrator',
        params: idParams,
        body: userInput,
        response: { 200: written(user) },
      },
    },
    async (request) => ({
      message: await said('resource.updated', request, 'entity.user'),
      data: await users.update(authOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { access: 'users.delete' },
      schema: {
        tags: ['users'],
        summary: 'Delete a user (their sessions end). Not yourself, not the last active administrator (422)',
        params: idParams,
        response: { 200: written(user) },
      },
    },
    async (request) => ({
      message: await said('resource.deleted', request, 'entity.user'),
      data: await users.remove(authOf(request), request.params.id),
    }),
  );

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

  app.get(
    '/api/permissions',
    {
      config: { access: 'permissions.list' },
      schema: {
        tags: ['roles'],
        summary: "The permission matrix: resources and the spec's action vocabulary",
        response: { 200: permissionMatrix },
      },
    },
    async (request) => ({
      data: {
        actions: [...ACTIONS],
        resources: Object.entries(RESOURCES).map(([resource, actions]) => ({ resource, actions: [...actions] })),
        grantable: grantable(authOf(request), PERMISSIONS),
      },
    }),
  );

  app.get(
    '/api/roles',
    {
      config: { access: 'roles.list' },
      schema: {
        tags: ['roles'],
        summary: 'Every role with its permissions and members',
        response: { 200: z.object({ data: z.array(role) }) },
      },
    },
    async (request) => ({ data: await roles.list(authOf(request)) }),
  );

  app.get(
    '/api/roles/:id',
    {
      config: { access: 'roles.view' },
      schema: { tags: ['roles'], summary: 'A role', params: idParams, response: { 200: single(role) } },
    },
    async (request) => ({ data: await roles.show(authOf(request), request.params.id) }),
  );

  app.post(
    '/api/roles',
    {
      config: { access: 'roles.create' },
      schema: {
        tags: ['roles'],
        summary: 'Create a role: name, group, labels in English and Khmer, permissions',
        body: roleInput,
        response: { 201: written(role) },
      },
    },
    async (request, reply) => {
      const data = await roles.create(authOf(request), request.body);
      return reply.code(201).send({ message: await said('resource.created', request, 'entity.role'), data });
    },
  );

  app.put(
    '/api/roles/:id',
    {
      config: { access: 'roles.update' },
      schema: {
        tags: ['roles'],
        summary:
          "Update a role and its permissions: takes effect on each member's next request, and their open screens are told (PermissionsChanged)",
        params: idParams,
        body: roleInput,
        response: { 200: written(role) },
      },
    },
    async (request) => ({
      message: await said('resource.updated', request, 'entity.role'),
      data: await roles.update(authOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/roles/:id/reset',
    {
      config: { access: 'roles.update' },
      schema: {
        tags: ['roles'],
        summary: 'Reset a default role to its default labels and permissions',
        params: idParams,
        response: { 200: written(role) },
      },
    },
    async (request) => ({
      message: await say(request, 'roles.reset'),
      data: await roles.reset(authOf(request), request.params.id),
    }),
  );

  app.delete(
    '/api/roles/:id',
    {
      config: { access: 'roles.delete' },
      schema: {
        tags: ['roles'],
        summary: 'Delete a role (not a default one); its members lose it',
        params: idParams,
        response: { 200: written(role) },
      },
    },
    async (request) => ({
      message: await said('resource.deleted', request, 'entity.role'),
      data: await roles.remove(authOf(request), request.params.id),
    }),
  );

  app.put(
    '/api/roles/:id/members',
    {
      config: { access: 'roles.assign' },
      schema: {
        tags: ['roles'],
        summary: "Replace a role's members; who is added or removed is told (PermissionsChanged)",
        params: idParams,
        body: roleMembersInput,
        response: { 200: written(role) },
      },
    },
    async (request) => ({
      message: await say(request, 'roles.members_saved'),
      data: await roles.setMembers(authOf(request), request.params.id, request.body.user_ids),
    }),
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
