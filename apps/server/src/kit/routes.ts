import {
  type ChangesQuery,
  changesPage,
  changesQuery,
  idParams,
  type ListQuery,
  listQuery,
  type MessageKey,
  type Permission,
  paginated,
  single,
  translate,
  written,
} from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authOf } from '../access/access.ts';
import type { Db } from '../db/database.ts';
import { say } from '../http/locale.ts';
import type { Filter, KitRoute, Read, ResourceDefinition, ResourceTable, Row } from './definition.ts';
import { resourceService } from './service.ts';

/**
 * A definition's `filter[<name>]` query parameters (zod shape) and how to read their values back
 * from a parsed query: the list and anything else narrowed like it (an export) take the same ones.
 */
export function listFilters(def: { filters?: Record<string, Filter> }) {
  const names = Object.keys(def.filters ?? {});
  return {
    shape: Object.fromEntries(
      Object.entries(def.filters ?? {}).map(([name, f]) => [`filter[${name}]`, f.schema.optional()]),
    ) as Record<string, z.ZodOptional<z.ZodType>>,
    read: (query: Record<string, unknown>) => Object.fromEntries(names.map((name) => [name, query[`filter[${name}]`]])),
  };
}

function pageLink(request: FastifyRequest, page: number): string {
  const [pathname, search = ''] = request.url.split('?');
  const params = new URLSearchParams(search);
  params.set('page', String(page));
  return `${pathname}?${params.toString()}`;
}

/** One page in Laravel's paginator shape (`data`, `meta`, `links`): the kit's lists and any other. */
export function pageAnswer<T>(
  request: FastifyRequest,
  query: { page: number; per_page: number },
  rows: T[],
  total: number,
  /** `total` is a lower bound (a search counted up to TOTAL_CAP): more pages may follow the last. */
  lowerBound = false,
) {
  const lastPage = Math.max(1, Math.ceil(total / query.per_page));
  const from = rows.length ? (query.page - 1) * query.per_page + 1 : null;
  return {
    data: rows,
    meta: {
      current_page: query.page,
      per_page: query.per_page,
      total,
      ...(lowerBound && { total_is_lower_bound: true }),
      last_page: lastPage,
      from,
      to: from === null ? null : from + rows.length - 1,
    },
    links: {
      first: pageLink(request, 1),
      last: pageLink(request, lastPage),
      prev: query.page > 1 ? pageLink(request, query.page - 1) : null,
      next:
        query.page < lastPage || (lowerBound && rows.length === query.per_page)
          ? pageLink(request, query.page + 1)
          : null,
    },
  };
}

/**
 * Registers the six routes of a resource, each declaring its permission. The schemas are zod, so
 * the same compilers validate and serialize them as every other route; the handlers are typed by
 * the definition rather than by the type provider, which cannot follow generic schemas.
 */
export function registerResource<
  T extends ResourceTable,
  I extends z.ZodType,
  O extends z.ZodType<Row>,
  Q extends Row = Read<z.infer<O>>,
>(app: FastifyInstance, db: Db, def: ResourceDefinition<T, I, O, Q>) {
  const service = resourceService(db, def);
  const filters = listFilters(def);
  const query = listQuery.extend(filters.shape).extend(def.extras ?? {});
  const extrasOf = (request: FastifyRequest) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.keys(def.extras ?? {}).map((name) => [name, q[name]]));
  };
  const tags = [def.resource];
  const message = (request: FastifyRequest, key: MessageKey) =>
    say(request, key, { entity: translate(def.entity, request.locale) });
  const permission: Record<KitRoute, string> = {
    list: 'list',
    show: 'view',
    create: 'create',
    update: 'update',
    delete: 'delete',
    restore: 'restore',
  };
  const access = (route: KitRoute) => ({
    access: def.access?.[route] ?? (`${def.resource}.${permission[route]}` as Permission),
  });
  const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;
  const body = (request: FastifyRequest) => request.body as z.output<I>;
  const has = (route: KitRoute) => !def.routes || def.routes.includes(route);
  const summary = (route: KitRoute) => (def.summaries?.[route] ? { summary: def.summaries[route] } : {});

  if (has('list'))
    app.get(
      def.path,
      {
        config: access('list'),
        schema: { tags, ...summary('list'), querystring: query, response: { 200: paginated(def.output) } },
      },
      async (request) => {
        const q = request.query as ListQuery & Record<string, unknown>;
        const { rows, total, lowerBound } = await service.list(authOf(request), q, filters.read(q), extrasOf(request));
        return pageAnswer(request, q, rows, total, lowerBound);
      },
    );

  if (def.changes)
    app.get(
      `${def.path}/changes`,
      {
        config: access('list'),
        schema: { tags, querystring: changesQuery, response: { 200: changesPage(def.output) } },
      },
      async (request) => service.changes(authOf(request), request.query as ChangesQuery),
    );

  if (has('show'))
    app.get(
      `${def.path}/:id`,
      {
        config: access('show'),
        schema: {
          tags,
          ...summary('show'),
          params: idParams,
          ...(def.extras && { querystring: z.object(def.extras) }),
          response: { 200: single(def.output) },
        },
      },
      async (request) => ({ data: await service.show(authOf(request), idOf(request), extrasOf(request)) }),
    );

  if (has('create'))
    app.post(
      def.path,
      {
        config: access('create'),
        schema: { tags, ...summary('create'), body: def.input, response: { 201: written(def.output) } },
      },
      async (request, reply) => {
        const data = await service.create(authOf(request), body(request));
        return reply.code(201).send({ message: await message(request, 'resource.created'), data });
      },
    );

  if (has('update'))
    app.put(
      `${def.path}/:id`,
      {
        config: access('update'),
        schema: {
          tags,
          ...summary('update'),
          params: idParams,
          body: def.input,
          response: { 200: written(def.output) },
        },
      },
      async (request) => ({
        message: await message(request, 'resource.updated'),
        data: await service.update(authOf(request), idOf(request), body(request)),
      }),
    );

  if (has('delete'))
    app.delete(
      `${def.path}/:id`,
      {
        config: access('delete'),
        schema: { tags, ...summary('delete'), params: idParams, response: { 200: written(def.output) } },
      },
      async (request) => ({
        message: await message(request, 'resource.deleted'),
        data: await service.remove(authOf(request), idOf(request)),
      }),
    );

  if (has('restore'))
    app.post(
      `${def.path}/:id/restore`,
      {
        config: access('restore'),
        schema: { tags, ...summary('restore'), params: idParams, response: { 200: written(def.output) } },
      },
      async (request) => ({
        message: await message(request, 'resource.restored'),
        data: await service.restore(authOf(request), idOf(request)),
      }),
    );

  return service;
}
