import type { Identity, Me, Permission, RoleSummary } from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Claim } from '../db/transaction.ts';
import { AppError, forbidden, unauthenticated } from '../http/errors.ts';
import type { Coverage } from '../policies/coverage.ts';

/**
 * What a route needs, declared in its config: `{ config: { access: 'products.list' } }`.
 * - 'public': anyone;
 * - 'authenticated': any signed-in, active user;
 * - a permission: a signed-in user whose roles grant it.
 */
export type Access = 'public' | 'authenticated' | Permission;

export interface AuthContext {
  userId: number;
  sessionId: number;
  name: string;
  storeId: number | null;
  roles: RoleSummary[];
  permissions: ReadonlySet<string>;
  /** The stores the user sees and acts in (policies/coverage.ts). */
  coverage: Coverage;
  /** The request's idempotency claim (http/idempotency.ts), taken by its write's transaction. */
  claim?: Claim | null;
  /** The user as GET /api/me shows them, read by the same query. */
  profile: Identity;
  /** The profile and permissions as made once for the same identity rows (modules/auth). */
  identity: Identified;
  /** The request's address, for the audit trail (modules/audit). */
  ip?: string;
}

/** A user as their identity rows describe them: made once for the same rows, never changed. */
export interface Identified {
  readonly profile: Identity;
  readonly permissions: { set: ReadonlySet<string>; list: string[] };
  /** The GET /api/me answer of this identity, for the coverage it was made with. */
  me: { coverage: Coverage; answer: { data: Me } } | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every API route with the access it declares (read by the permission-matrix test). */
    accessTable: { method: string; url: string; access: Access }[];
  }
}

/** Resolves a bearer token to who is asking, or null when the token is unknown, expired or revoked. */
export type Authenticator = (token: string) => Promise<AuthContext | null>;

/** The signed-in user of a route whose access is not 'public'. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/**
 * What a session may still do while its user must change their password (after an administrator's
 * reset): read who they are, change the password, sign out. Anything else is refused.
 */
export const PASSWORD_CHANGE_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/me',
  'POST /api/me/password',
  'POST /api/logout',
]);

/** 403 with `code: 'password_change_required'`: the web sends the user to choose a new password. */
export function passwordChangeRequired(): AppError {
  return new AppError(403, 'auth.password_change_required', undefined, {
    body: { code: 'password_change_required' },
  });
}

/**
 * The one place access is enforced. Every API route must declare `access` (start-up fails
 * otherwise), so a route cannot be left open by forgetting it.
 */
export function registerAccess(app: FastifyInstance, authenticate: Authenticator): void {
  app.decorateRequest('auth', null);
  const table: FastifyInstance['accessTable'] = [];
  app.decorate('accessTable', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url, access });
    }
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token = bearer(request);
    const auth = token ? await authenticate(token) : null;
    if (!auth) throw unauthenticated();
    auth.ip = request.ip;
    request.auth = auth;
    // a temporary password (an administrator's reset) opens nothing but the way to a new one
    if (
      auth.profile.must_change_password &&
      !PASSWORD_CHANGE_ROUTES.has(`${request.method} ${request.routeOptions.url}`)
    )
      throw passwordChangeRequired();
    if (access !== 'authenticated' && !auth.permissions.has(access)) throw forbidden();
  });
}
