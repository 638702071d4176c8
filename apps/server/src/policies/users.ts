import type { User } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { AppError, FieldError } from '../http/errors.ts';
import { type Actor, can, covers } from './policy.ts';

/**
 * Users and roles: who may manage staff, and the one rule nobody may break: Depot always keeps an
 * active administrator. An administrator is an active, live user whose roles grant both
 * `users.update` and `roles.update` (whoever can give everyone else their rights back). Every write
 * that could take the last one away (disable, delete, a change of roles, a role's permissions or
 * members, a role deleted) checks it inside its transaction, after the change: a refusal rolls the
 * change back (422).
 */
export const ADMIN_PERMISSIONS = ['users.update', 'roles.update'] as const;

/** The ids of the active administrators (in `trx`: the state the running write leaves). */
export async function administratorIds(trx: Db): Promise<number[]> {
  const holds = (permission: string) => sql<boolean>`exists (
    select 1 from user_roles ur
    join roles r on r.id = ur.role_id and r.deleted_at is null
    join role_permissions rp on rp.role_id = r.id
    join permissions p on p.id = rp.permission_id
    where ur.user_id = users.id and p.name = ${permission})`;
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .where(holds(ADMIN_PERMISSIONS[0]))
    .where(holds(ADMIN_PERMISSIONS[1]))
    .execute();
  return rows.map((r) => r.id);
}

/** Refuses (422) a write that leaves no active administrator. */
export async function assertAdministratorRemains(trx: Db): Promise<void> {
  if ((await administratorIds(trx)).length === 0) throw new AppError(422, 'users.last_admin');
}

/** A user may not disable or delete themselves (they would lose the screen they act from). */
export function assertNotSelf(actor: Actor, userId: number): void {
  if (actor.userId === userId) throw new AppError(422, 'users.self');
}

/** The stores named by a user's input must be ones the actor covers (422 on the field). */
export function assertStoresCovered(actor: Actor, field: string, storeIds: readonly number[]): void {
  for (const id of storeIds) {
    if (!covers(actor, id)) throw new FieldError({ [field]: [{ key: 'policy.store' }] });
  }
}

/** Changing a user's roles is assigning roles: `roles.assign` (an escalation otherwise). */
export function assertMayAssignRoles(actor: Actor): void {
  if (!can(actor, 'roles.assign')) throw new AppError(403, 'auth.forbidden');
}

/**
 * What the actor may do to a user now. `lastAdmin`: the user is the only active administrator,
 * so disabling, deleting or demoting them would be refused.
 */
export function userAbilities(actor: Actor, record: { id: number; deleted_at: string | null }, lastAdmin: boolean) {
  const live = record.deleted_at === null;
  const self = actor.userId === record.id;
  return {
    update: live && can(actor, 'users.update'),
    delete: live && !self && !lastAdmin && can(actor, 'users.delete'),
    disable: live && !self && !lastAdmin && can(actor, 'users.update'),
    reset_password: live && can(actor, 'users.update'),
    assign: live && can(actor, 'coverage.assign'),
  } satisfies NonNullable<User['abilities']>;
}
