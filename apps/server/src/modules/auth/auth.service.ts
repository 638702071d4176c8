import {
  type LoginResponse,
  type Me,
  REFRESH_LIFETIME_SECONDS,
  type RefreshResponse,
  type RoleSummary,
  SESSION_LIFETIME_SECONDS,
} from '@depot/contracts';
import type { AuthContext } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { type AuthRepository, authRepository, type IdentityRow } from './auth.repository.ts';
import type { Throttle } from './login-throttle.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { hashToken, newToken } from './tokens.ts';

const TOUCH_EVERY_MS = 5 * 60_000;
/** How long a rotated refresh token may be presented again (a retry whose answer was lost). */
export const REUSE_LEEWAY_MS = 60_000;
const authError = (status: number, key: 'auth.failed' | 'auth.disabled' | 'auth.refresh_failed') =>
  new AppError(status, key, undefined, { body: { status: 'error' } });

function addSeconds(iso: string, seconds: number): string {
  return new Date(Date.parse(iso) + seconds * 1000).toISOString();
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export function authService(db: Db, throttle: Throttle) {
  const repo: AuthRepository = authRepository(db);

  async function issueTokens(sessionId: number, at: string) {
    const token = newToken();
    const refreshToken = newToken();
    await repo.insertTokens([
      {
        session_id: sessionId,
        kind: 'access',
        token_hash: hashToken(token),
        expires_at: addSeconds(at, SESSION_LIFETIME_SECONDS),
        created_at: at,
      },
      {
        session_id: sessionId,
        kind: 'refresh',
        token_hash: hashToken(refreshToken),
        expires_at: addSeconds(at, REFRESH_LIFETIME_SECONDS),
        created_at: at,
      },
    ]);
    return { token, refresh_token: refreshToken, expires_in: SESSION_LIFETIME_SECONDS };
  }

  // Permission sets by role, valid while the role's version (updated_at) is unchanged, and the
  // merged set by the combination of role versions a user holds.
  const rolePermissions = new Map<number, { version: string; permissions: string[] }>();
  const merged = new Map<string, { set: ReadonlySet<string>; list: string[] }>();

  async function permissionsOf(rows: IdentityRow[]) {
    const roles = rows.filter((r) => r.role_id !== null);
    const key = roles.map((r) => `${r.role_id}@${r.role_version}`).join(',');
    let permissions = merged.get(key);
    if (!permissions) {
      const all = new Set<string>();
      for (const role of roles) {
        const id = role.role_id as number;
        let cached = rolePermissions.get(id);
        if (cached?.version !== role.role_version) {
          cached = { version: role.role_version as string, permissions: await repo.permissionsOfRole(id) };
          rolePermissions.set(id, cached);
        }
        for (const p of cached.permissions) all.add(p);
      }
      permissions = { set: all, list: [...all].sort() };
      if (merged.size > 1000) merged.clear();
      merged.set(key, permissions);
    }
    return permissions;
  }

  /** Who the identity rows describe, with their permissions. */
  async function identity(rows: IdentityRow[]) {
    const [user] = rows;
    const permissions = await permissionsOf(rows);
    const roles: RoleSummary[] = rows
      .filter((r) => r.role_id !== null)
      .map((r) => ({
        name: r.role_name as string,
        group: r.role_group as string,
        label_en: r.role_label_en as string,
        label_kh: r.role_label_kh as string,
      }));
    const profile: Me = {
      id: user.user_id,
      name: user.name,
      full_name: user.full_name,
      email: user.email,
      phone: user.phone,
      position: user.position,
      status: user.status,
      media: user.profile_image ? [{ file_path: user.profile_image }] : [],
      store:
        user.store_id === null ? null : { id: user.store_id, name: user.store_name ?? '', code: user.store_code ?? '' },
      roles: roles.map((r) => r.name),
      role_details: roles,
      permissions: permissions.list,
    };
    return { profile, permissions };
  }

  return {
    async login(name: string, password: string, client: ClientInfo): Promise<LoginResponse> {
      const retryAfter = await throttle.retryAfter(name, client.ip);
      if (retryAfter > 0) {
        throw new AppError(
          429,
          'auth.throttled',
          { seconds: retryAfter },
          { headers: { 'retry-after': String(retryAfter) }, body: { status: 'error' } },
        );
      }
      const user = await repo.findUserByName(name);
      const valid = await verifyPassword(user?.password_hash ?? (await decoyHash()), password);
      if (!user || !valid) {
        await throttle.fail(name, client.ip);
        throw authError(401, 'auth.failed');
      }
      if (user.status !== 'active') throw authError(403, 'auth.disabled');
      await throttle.succeed(name);

      const at = now();
      const session = await repo.createSession({
        user_id: user.id,
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 255) ?? null,
        at,
      });
      const tokens = await issueTokens(session.id, at);
      const { profile } = await identity(await repo.findIdentity(user.id));
      return {
        status: 'success',
        ...tokens,
        user_info: { id: profile.id, name: profile.name, full_name: profile.full_name, media: profile.media },
        permissions: profile.permissions,
        roles: profile.roles,
        store: profile.store,
      };
    },

    /**
     * Rotates a refresh token. A token used again more than a minute after its rotation means it
     * was copied: the whole chain of that sign-in is revoked, so neither the thief nor the owner
     * keeps a working token.
     */
    async refresh(refreshToken: string): Promise<RefreshResponse> {
      const at = now();
      const found = await repo.findRefresh(hashToken(refreshToken));
      if (!found) throw authError(401, 'auth.refresh_failed');
      const live =
        found.revoked_at === null && found.expires_at > at && found.status === 'active' && found.deleted_at === null;
      const fresh = found.used_at === null && (await repo.useRefresh(found.id, at));
      if (!fresh) {
        // Used before. Within a minute of that use it is the same till retrying after its answer was
        // lost on a bad connection; later, a copy someone else kept.
        const usedAt = found.used_at ?? at;
        const retry = Date.parse(at) - Date.parse(usedAt) <= REUSE_LEEWAY_MS;
        if (!retry || !live) {
          await repo.revokeSession(found.session_id, at);
          throw authError(401, 'auth.refresh_failed');
        }
      }
      if (!live) throw authError(401, 'auth.refresh_failed');
      await repo.touchSession(found.session_id, at);
      return { status: 'success', ...(await issueTokens(found.session_id, at)) };
    },

    async logout(sessionId: number): Promise<void> {
      await repo.revokeSession(sessionId, now());
    },

    /** One query: the token's live session, its user, store and roles; permissions from the cache. */
    async authenticate(token: string): Promise<AuthContext | null> {
      const at = now();
      const rows = await repo.findAccess(hashToken(token), at);
      if (!rows.length) return null;
      const [first] = rows;
      if (Date.parse(at) - Date.parse(first.last_used_at) > TOUCH_EVERY_MS) {
        await repo.touchSession(first.session_id, at);
      }
      const { profile, permissions } = await identity(rows);
      return {
        userId: profile.id,
        sessionId: first.session_id,
        name: profile.name,
        storeId: profile.store?.id ?? null,
        roles: profile.role_details,
        permissions: permissions.set,
        profile,
      };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
