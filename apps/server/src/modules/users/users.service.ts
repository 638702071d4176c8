import type { User, UserCoverage } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { FieldError, notFound } from '../../http/errors.ts';
import { resourceService } from '../../kit/resource.ts';
import { tableChanged } from '../../kit/totals.ts';
import type { Actor } from '../../policies/policy.ts';
import {
  assertAdministratorRemains,
  assertAreasCovered,
  assertNotSelf,
  assertStoresCovered,
  authorizeUser,
  seesUser,
  userSubject,
} from '../../policies/users.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { assertStrongPassword, hashPassword } from '../auth/passwords.ts';
import {
  endSessions,
  existingIds,
  liveIds,
  readCoverage,
  replaceAreas,
  replaceStores,
  updateUser,
  userRow,
} from './users.repository.ts';
import { revoked, storesLost, users } from './users.resources.ts';

/**
 * Users' writes beyond the kit's create, edit and delete (users.resources.ts): the status, a
 * password reset, what a user covers. Each is refused unless the actor may take that action on
 * that user (policies/users.ts), and the last administrator is kept.
 */
export function usersService(db: Db) {
  const kit = resourceService(db, users);

  async function present(trx: Db, actor: Actor, id: number): Promise<User> {
    const row = await users.query(trx).where('users.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    const [record] = await kit.complete(trx, [row], {}, actor);
    return record as User;
  }

  async function lockedUser(trx: Db, id: number) {
    const row = await userRow(trx, id);
    if (!row || row.deleted_at !== null) throw notFound();
    return row;
  }

  const authorized = authorizeUser;

  const write = <T>(actor: Actor, work: (trx: Db) => Promise<T>) =>
    transaction(db, work, actor).finally(() => tableChanged(db, 'users'));

  return {
    /** Disables (ending their sessions at once) or enables a user. */
    setStatus(actor: Actor, id: number, status: 'active' | 'inactive'): Promise<User> {
      if (status === 'inactive') assertNotSelf(actor, id);
      return write(actor, async (trx) => {
        const before = await lockedUser(trx, id);
        await authorized(trx, actor, id, status === 'inactive' ? 'disable' : 'update');
        const at = now();
        await updateUser(trx, id, { status }, at);
        if (status === 'inactive') {
          await endSessions(trx, id, at);
          revoked(trx, id, 'disabled');
        }
        await assertAdministratorRemains(trx);
        if (before.status !== status) {
          await recordAudit(trx, auditWho(actor), {
            action: status === 'inactive' ? 'user.disabled' : 'user.enabled',
            subject: { type: 'user', id },
            before: { status: before.status },
            after: { status },
          });
        }
        return present(trx, actor, id);
      });
    },

    /** A new password the user must change at their next sign-in; their sessions end. */
    resetPassword(actor: Actor, id: number, password: string): Promise<User> {
      return write(actor, async (trx) => {
        const user = await lockedUser(trx, id);
        await authorized(trx, actor, id, 'reset_password');
        assertStrongPassword(password, [user.name, user.full_name, user.email]);
        const at = now();
        await updateUser(trx, id, { password_hash: await hashPassword(password), must_change_password: 1 }, at);
        await endSessions(trx, id, at);
        revoked(trx, id, 'sessions_ended');
        await recordAudit(trx, auditWho(actor), { action: 'user.password_reset', subject: { type: 'user', id } });
        return present(trx, actor, id);
      });
    },

    /** What a user covers: 404 for a user the actor does not see (policies/users.ts seesUser). */
    async coverage(actor: Actor, id: number): Promise<UserCoverage> {
      const user = await userRow(db, id);
      const subject = user && (await userSubject(db, id));
      if (!user || !subject || !seesUser(actor, subject)) throw notFound();
      return readCoverage(db, id, user.store_id);
    },

    /** The stores, operational districts and health facilities a user covers, replaced. */
    setCoverage(
      actor: Actor,
      id: number,
      input: { store_ids: number[]; operational_district_ids: number[]; health_facility_ids: number[] },
    ): Promise<UserCoverage> {
      return write(actor, async (trx) => {
        const user = await lockedUser(trx, id);
        await authorized(trx, actor, id, 'assign');
        const stores = [...new Set([...input.store_ids, ...(user.store_id ? [user.store_id] : [])])];
        const live = await liveIds(trx, 'stores', stores);
        const districts = [...new Set(input.operational_district_ids)];
        const facilities = [...new Set(input.health_facility_ids)];
        const errors: Record<string, { key: 'validation.exists' }[]> = {};
        if (stores.some((s) => !live.has(s))) errors.store_ids = [{ key: 'validation.exists' }];
        const knownDistricts = await existingIds(trx, 'operational_districts', districts);
        if (districts.some((d) => !knownDistricts.has(d)))
          errors.operational_district_ids = [{ key: 'validation.exists' }];
        const knownFacilities = await existingIds(trx, 'health_facilities', facilities);
        if (facilities.some((f) => !knownFacilities.has(f)))
          errors.health_facility_ids = [{ key: 'validation.exists' }];
        if (Object.keys(errors).length) throw new FieldError(errors);
        assertStoresCovered(actor, 'store_ids', stores);
        assertAreasCovered(actor, districts, facilities);
        const before = await readCoverage(trx, id, user.store_id);
        await replaceStores(trx, id, stores);
        await replaceAreas(trx, id, districts, facilities);
        // the user's version: their remembered coverage is read again on their next request
        await updateUser(trx, id, {});
        const after = await readCoverage(trx, id, user.store_id);
        await recordAudit(trx, auditWho(actor), {
          action: 'user.coverage',
          subject: { type: 'user', id },
          before,
          after,
        });
        emit(trx, event('PermissionsChanged', { user_ids: [id] }));
        const lost = storesLost(before.store_ids, user.store_id, stores);
        if (lost.length) revoked(trx, id, 'stores_removed', lost);
        return after;
      });
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
