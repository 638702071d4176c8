import {
  type Identity,
  type LoginResponse,
  landingOf,
  type Me,
  REFRESH_LIFETIME_SECONDS,
  type RefreshResponse,
  type RoleSummary,
  SESSION_LIFETIME_SECONDS,
} from '@depot/contracts';
import type { AuthContext, Identified } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import { keepsItsJson } from '../../http/validation.ts';
import { coverageResolver, storeCoverageOf } from '../../policies/coverage.ts';
import type { Actor } from '../../policies/policy.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { type AuthRepository, authRepository, type IdentityRow } from './auth.repository.ts';
import type { Throttle } from './login-throttle.ts';
import { assertStrongPassword, decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { hashToken, newToken } from './tokens.ts';

const TOUCH_EVERY_MS = 5 * 60_000;
/**
 * How long a rotated refresh token may be presented again by the client that rotated it (a retry
 * whose answer was lost): the web app retries 5 s after a lost answer, then 10 s later.
 */
export const REUSE_LEEWAY_MS = 20_000;
/** A sign-in's absolute lifetime unless configured (DEPOT_SESSION_MAX_DAYS): refreshing never extends it. */
export const SESSION_MAX_DAYS = 30;
const authError = (status: number, key: 'auth.failed' | 'auth.disabled' | 'auth.refresh_failed') =>
  new AppError(status, key, undefined, { body: { status: 'error' } });

function addSeconds(iso: string, seconds: number): string {
  return new Date(Date.parse(iso) + seconds * 1000).toISOString();
}

/**
 * 429 with Retry-After: "Too many failed sign-in attempts. Try again in N seconds." (this address
 * is refused for the name, or at all), or, `slowed`, "Too many failed attempts for this name. Wait N
 * seconds before trying again." (the name's growing delay, for an address new to the user).
 */
export function throttled(seconds: number, body: Record<string, unknown> = {}, slowed = false): AppError {
  return new AppError(
    429,
    slowed ? 'auth.slowed' : 'auth.throttled',
    { seconds },
    { headers: { 'retry-after': String(seconds) }, body },
  );
}

export type Credentials =
  | { ok: true; userId: number; mustChangePassword: boolean }
  | { ok: false; reason: 'throttled' | 'slowed'; retryAfter: number }
  | { ok: false; reason: 'failed' | 'disabled' };

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/** Who presents a refresh token, as stored in `auth_tokens.used_by`. */
const clientOf = (client: ClientInfo) => hashToken(`${client.ip}\n${client.userAgent ?? ''}`);

export interface AuthOptions {
  /** A sign-in's absolute lifetime in days, however often it is refreshed (DEPOT_SESSION_MAX_DAYS). */
  sessionMaxDays?: number;
}

export function authService(db: Db, throttle: Throttle, options: AuthOptions = {}) {
  const repo: AuthRepository = authRepository(db);
  const coverageOf = coverageResolver(db);
  const sessionMaxSeconds = (options.sessionMaxDays ?? SESSION_MAX_DAYS) * 86_400;

  /** Tokens expire at their lifetime or at the end of their sign-in's absolute lifetime, whichever is first. */
  async function issueTokensWith(store: AuthRepository, sessionId: number, at: string, signedInAt: string) {
    const token = newToken();
    const refreshToken = newToken();
    const end = addSeconds(signedInAt, sessionMaxSeconds);
    const until = (seconds: number) => {
      const natural = addSeconds(at, seconds);
      return natural < end ? natural : end;
    };
    const accessExpires = until(SESSION_LIFETIME_SECONDS);
    await store.insertTokens([
      {
        session_id: sessionId,
        kind: 'access',
        token_hash: hashToken(token),
        expires_at: accessExpires,
        created_at: at,
      },
      {
        session_id: sessionId,
        kind: 'refresh',
        token_hash: hashToken(refreshToken),
        expires_at: until(REFRESH_LIFETIME_SECONDS),
        created_at: at,
      },
    ]);
    const expiresIn = Math.max(0, Math.floor((Date.parse(accessExpires) - Date.parse(at)) / 1000));
    return { token, refresh_token: refreshToken, expires_in: expiresIn };
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

  // Who the identity rows describe, by every value of the rows (a profile, a store, a role renamed
  // or re-versioned is a new key): every request reads the rows; the same rows make the same
  // profile, built once. Its GET /api/me answer is kept with it, per coverage (policies/coverage.ts
  // gives the same object while the user's version is unchanged).
  const identities = new Map<string, Identified>();

  /** Who the identity rows describe, with their permissions: the same objects for the same rows. */
  async function identity(rows: IdentityRow[]): Promise<Identified> {
    let key = '';
    // each value tagged with its type (null apart from "null") and ended by a NUL, which no stored
    // text holds (http/text.ts refuses it)
    for (const row of rows) {
      for (const column of IDENTITY_KEYS) {
        const value = row[column];
        key += value === null ? '\u0000' : `${typeof value}:${value}\u0000`;
      }
    }
    let known = identities.get(key);
    if (!known) {
      known = await identityOf(rows);
      if (identities.size >= 10_000) identities.clear();
      identities.set(key, known);
    }
    return known;
  }

  async function identityOf(rows: IdentityRow[]): Promise<Identified> {
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
    const profile: Identity = {
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
      // the first role (by name) whose landing the user may open (contracts screens.ts)
      landing: landingOf(
        rows.filter((r) => r.role_id !== null).map((r) => ({ landing: r.role_landing })),
        permissions.set,
      ),
      must_change_password: user.must_change_password === 1,
    };
    // shared by every request of the same rows: never changed once made
    for (const list of [profile.media, profile.roles, profile.role_details, profile.permissions]) Object.freeze(list);
    return { profile: Object.freeze(profile), permissions, me: null };
  }

  /**
   * A name and a password checked behind the sign-in throttle (login-throttle.ts): sign-in and a
   * manager's approval at the till both ask it. The address that guessed too often (for this name,
   * or for any) is refused; a name guessed at too often only makes new addresses wait a growing
   * delay, and an address the user signed in from before never waits, so nobody can lock the owner
   * out from elsewhere. While the delay lasts a new address's password is not even checked (an
   * answer would let the guessing go on at full speed).
   */
  async function checkCredentials(name: string, password: string, ip: string): Promise<Credentials> {
    const state = await throttle.check(name, ip);
    if (state.blocked > 0) return { ok: false, reason: 'throttled', retryAfter: state.blocked };
    const user = await repo.findUserByName(name);
    if (state.slowed > 0 && !(user && (await repo.signedInFrom(user.id, ip)))) {
      return { ok: false, reason: 'slowed', retryAfter: state.slowed };
    }
    const valid = await verifyPassword(user?.password_hash ?? (await decoyHash()), password);
    if (!user || !valid) {
      await throttle.fail(name, ip);
      return { ok: false, reason: 'failed' };
    }
    if (user.status !== 'active') return { ok: false, reason: 'disabled' };
    await throttle.succeed(name, ip);
    return { ok: true, userId: user.id, mustChangePassword: user.must_change_password === 1 };
  }

  return {
    checkCredentials,

    async login(name: string, password: string, client: ClientInfo): Promise<LoginResponse> {
      const checked = await checkCredentials(name, password, client.ip);
      if (!checked.ok) {
        // every refusal but the throttle's is a line of the audit trail (the throttle's would let
        // a flood of guesses fill it)
        if (checked.reason === 'throttled' || checked.reason === 'slowed') {
          throw throttled(checked.retryAfter, { status: 'error' }, checked.reason === 'slowed');
        }
        const known = await repo.findUserByName(name);
        await recordAudit(
          db,
          { userId: known?.id ?? null, name, ip: client.ip },
          { action: 'auth.login_failed', after: { reason: checked.reason } },
        );
        throw checked.reason === 'failed' ? authError(401, 'auth.failed') : authError(403, 'auth.disabled');
      }
      const at = now();
      const tokens = await transaction(db, async (trx) => {
        const sessions = authRepository(trx);
        const session = await sessions.createSession({
          user_id: checked.userId,
          ip: client.ip,
          user_agent: client.userAgent?.slice(0, 255) ?? null,
          at,
        });
        // the user's version (updated_at) stays: it versions their remembered coverage
        await trx
          .updateTable('users')
          .set({ last_login_at: at, last_login_ip: client.ip.slice(0, 64) })
          .where('id', '=', checked.userId)
          .execute();
        await recordAudit(
          trx,
          { userId: checked.userId, name, ip: client.ip },
          { action: 'auth.login', subject: { type: 'user', id: checked.userId } },
        );
        return issueTokensWith(sessions, session.id, at, at);
      });
      const rows = await repo.findIdentity(checked.userId);
      const { profile, permissions } = await identity(rows);
      const coverage = await coverageOf({
        userId: profile.id,
        version: rows[0]?.user_version ?? '',
        homeStoreId: profile.store?.id ?? null,
        permissions: permissions.set,
      });
      return {
        status: 'success',
        ...tokens,
        user_info: { id: profile.id, name: profile.name, full_name: profile.full_name, media: profile.media },
        permissions: profile.permissions,
        roles: profile.roles,
        store: profile.store,
        coverage: storeCoverageOf(coverage),
        landing: profile.landing,
        must_change_password: profile.must_change_password,
      };
    },

    /**
     * A user sets their own password (the current one first): the reset's "change at next sign-in"
     * is cleared and their other sign-ins end.
     */
    async changePassword(
      actor: { userId: number; sessionId: number; name: string; ip?: string },
      current: string,
      password: string,
    ): Promise<void> {
      const user = await db
        .selectFrom('users')
        .select(['password_hash', 'name', 'full_name', 'email'])
        .where('id', '=', actor.userId)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(user.password_hash, current))) {
        throw new FieldError({ current_password: [{ key: 'auth.current_password' }] });
      }
      assertStrongPassword(password, [user.name, user.full_name, user.email, current]);
      const hash = await hashPassword(password);
      await transaction(db, async (trx) => {
        const at = now();
        await trx
          .updateTable('users')
          .set({ password_hash: hash, must_change_password: 0, updated_at: at })
          .where('id', '=', actor.userId)
          .execute();
        await trx
          .updateTable('auth_sessions')
          .set({ revoked_at: at })
          .where('user_id', '=', actor.userId)
          .where('id', '!=', actor.sessionId)
          .where('revoked_at', 'is', null)
          .execute();
        await recordAudit(trx, auditWho(actor), {
          action: 'auth.password_changed',
          subject: { type: 'user', id: actor.userId },
        });
      });
    },

    /**
     * Rotates a refresh token (OAuth 2.0 security BCP): a token presented again means it was
     * copied, and the whole family (the sign-in, every token it issued) is revoked, so neither the
     * thief nor the owner keeps a working token. Only the client that used it, within a few seconds
     * (REUSE_LEEWAY_MS: a retry whose answer was lost on a bad connection), is answered again. A
     * sign-in ends at its absolute lifetime however often it was refreshed.
     */
    async refresh(refreshToken: string, client: ClientInfo): Promise<RefreshResponse> {
      const at = now();
      const hash = hashToken(refreshToken);
      let found = await repo.findRefresh(hash);
      if (!found) throw authError(401, 'auth.refresh_failed');
      const by = clientOf(client);
      const fresh = found.used_at === null && (await repo.useRefresh(found.id, at, by));
      // a concurrent use got there first: read who it was
      if (!fresh && found.used_at === null) found = (await repo.findRefresh(hash)) ?? found;
      const live =
        found.revoked_at === null &&
        found.expires_at > at &&
        addSeconds(found.session_created_at, sessionMaxSeconds) > at &&
        found.status === 'active' &&
        found.deleted_at === null;
      if (!fresh) {
        const usedAt = found.used_at ?? at;
        const retry = found.used_by === by && Date.parse(at) - Date.parse(usedAt) <= REUSE_LEEWAY_MS;
        if (!retry || !live) {
          await repo.revokeSession(found.session_id, at);
          throw authError(401, 'auth.refresh_failed');
        }
      }
      if (!live) throw authError(401, 'auth.refresh_failed');
      await repo.touchSession(found.session_id, at);
      return { status: 'success', ...(await issueTokensWith(repo, found.session_id, at, found.session_created_at)) };
    },

    async logout(sessionId: number): Promise<void> {
      await repo.revokeSession(sessionId, now());
    },

    /**
     * A live, active user as an actor (permissions and coverage), or null: a manager approving at
     * the till is checked against the record as the signed-in user is.
     */
    async actorOf(userId: number): Promise<Actor | null> {
      const rows = await repo.findIdentity(userId);
      const [first] = rows;
      if (first?.status !== 'active') return null;
      const { profile, permissions } = await identity(rows);
      const storeId = profile.store?.id ?? null;
      return {
        userId,
        storeId,
        permissions: permissions.set,
        coverage: await coverageOf({
          userId,
          version: first.user_version,
          homeStoreId: storeId,
          permissions: permissions.set,
        }),
      };
    },

    /** One query: the token's live session, its user, store and roles; permissions from the cache. */
    async authenticate(token: string): Promise<AuthContext | null> {
      const at = now();
      const rows = await repo.findAccess(hashToken(token), at, addSeconds(at, -sessionMaxSeconds));
      if (!rows.length) return null;
      const [first] = rows;
      if (Date.parse(at) - Date.parse(first.last_used_at) > TOUCH_EVERY_MS) {
        await repo.touchSession(first.session_id, at);
      }
      const known = await identity(rows);
      const { profile, permissions } = known;
      const storeId = profile.store?.id ?? null;
      const coverage = coverageOf({
        userId: profile.id,
        version: first.user_version,
        homeStoreId: storeId,
        permissions: permissions.set,
      });
      return {
        userId: profile.id,
        identity: known,
        sessionId: first.session_id,
        name: profile.name,
        storeId,
        roles: profile.role_details,
        permissions: permissions.set,
        coverage: coverage instanceof Promise ? await coverage : coverage,
        profile,
      };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;

/** The identity columns that make a profile (the session's are not among them). */
const IDENTITY_KEYS = [
  'user_id',
  'name',
  'full_name',
  'email',
  'phone',
  'position',
  'status',
  'profile_image',
  'must_change_password',
  'user_version',
  'store_id',
  'store_name',
  'store_code',
  'role_id',
  'role_name',
  'role_group',
  'role_label_en',
  'role_label_kh',
  'role_landing',
  'role_version',
] as const satisfies readonly (keyof IdentityRow)[];

/** GET /api/me's answer: the same object while the identity and the coverage are (http/validation.ts keeps its JSON). */
export function meAnswer(auth: AuthContext): { data: Me } {
  const known = auth.identity;
  if (known.me?.coverage !== auth.coverage) {
    known.me = {
      coverage: auth.coverage,
      answer: keepsItsJson({ data: { ...known.profile, coverage: storeCoverageOf(auth.coverage) } }),
    };
  }
  return known.me.answer;
}
