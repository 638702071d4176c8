import {
  ACTIONS,
  idParams,
  PERMISSIONS,
  permissionMatrix,
  RESOURCES,
  role,
  roleMembersInput,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { grantable } from '../../policies/roles.ts';
import { rolesService } from './roles.service.ts';

/**
 * The permission matrix, the roles' list and each role, a default role's reset and a role's
 * members (the kit creates, edits and deletes roles: roles.resources.ts).
 */
export const rolesRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const roles = rolesService(db);

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
