import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Access } from '../access/access.ts';

/**
 * The API's own description at /api/docs (the page) and /api/docs/json (the document), made in
 * this one place from the route definitions: each operation's schemas (zod, converted), and from
 * what the route declares (its path, its method, its `access`) the operationId generated clients
 * name it by, a summary where the route gives none, and the 4xx answers it can give. The document
 * passes Redocly's recommended rules (redocly.yaml; openapi.test.ts lints it).
 */

/** What every error answers (http/errors.ts): a message, with the fields' messages on a 422. */
const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    code: { type: 'string' },
  },
  required: ['message'],
} as const;

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const FILE = {
  description: 'A file (a workbook or a PDF)',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `POST /api/purchases/{id}/receive` → `postPurchasesByIdReceive`: stable, and unique per route. */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      return param ? ['by', ...param[1].split(/[^a-zA-Z0-9]+/)] : segment.split(/[^a-zA-Z0-9]+/);
    })
    .filter(Boolean);
  const pascal = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
  return method.toLowerCase() + pascal;
}

/** Who may call it, as a summary's end: "(products.list)", "(signed in)", "(public)". */
function accessText(access: Access | undefined): string {
  if (!access || access === 'public') return 'public';
  return access === 'authenticated' ? 'signed in' : access;
}

/** Does the body take a manager's approval at the till (throttled like sign-ins, policies/approval.ts)? */
function takesApproval(body: unknown): boolean {
  const properties = (body as { properties?: Record<string, unknown> } | undefined)?.properties;
  return Boolean(properties && 'approval' in properties);
}

/**
 * The 4xx answers a route can give, from what it declares: 401 unless public, 403 for a permission,
 * 404 for a record named in the path, 409 for a write (a state or a duplicate refused), 422 for
 * every route (its input's rules, and the text guard on any query: http/text.ts), 429 where a
 * password is checked (sign-in, a manager's approval).
 */
function clientErrors(method: string, url: string, access: Access | undefined, body: unknown) {
  const answers: Record<string, ReturnType<typeof error>> = {};
  if (access && access !== 'public') answers[401] = error('Not signed in, or the sign-in expired');
  if (access && access !== 'public' && access !== 'authenticated') answers[403] = error(`Needs ${access}`);
  if (url.includes('{')) answers[404] = error('No such record, or not one the user sees');
  if (WRITES.has(method)) answers[409] = error('Refused by the record’s state, or a duplicate');
  answers[422] = error('The input breaks a rule; `errors` names the fields');
  if (takesApproval(body)) answers[429] = error('Too many failed passwords; try again after Retry-After');
  return answers;
}

/** The route-level transform: zod → JSON Schema, then the operationId, a summary and the 4xx answers. */
const transform: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  if ((schema as { hide?: boolean }).hide) return { schema, url };
  const method = [input.route.method].flat()[0].toUpperCase();
  const access = input.route.config?.access;
  const path = url.replace(/:(\w+)/g, '{$1}');
  const response = (schema.response ?? {}) as Record<string, unknown>;
  // a route that declares no answer's schema sends a file (a workbook, a PDF)
  if (!Object.keys(response).some((status) => status.startsWith('2'))) response[200] = FILE;
  return {
    url,
    schema: {
      ...schema,
      operationId: operationId(method, path),
      summary:
        (schema as { summary?: string }).summary ?? `${method} ${path.replace(/^\/api/, '')} (${accessText(access)})`,
      response: { ...clientErrors(method, path, access, schema.body), ...response },
      // a public route needs no token
      ...(access === 'public' ? { security: [] } : {}),
    } as typeof schema,
  };
};

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Depot API',
        version: '0.1.0',
        description: 'Sales and inventory back office',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      // paths are absolute (/api/…): the server is wherever the document was fetched from
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: { Error: ERROR_SCHEMA as never },
      },
      security: [{ bearer: [] }],
    },
    transform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
}
