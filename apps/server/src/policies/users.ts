import type { User, UserInput } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { AppError, FieldError, forbidden, notFound } from '../http/errors.ts';
import type { ResourcePolicy } from '../kit/definition.ts';
import { heldRoles, rolePermissions } from '../modules/users/users.repository.ts';
import { limitsAreas } from './coverage.ts';
import { type Actor, type AnyQuery, type can, covers, definePolicy, rule } from './policy.ts';

/**
 * Users and roles: who may manage staff. Two rules hold every write here.
 *
 * Authority never grows by itself: an actor may create, edit, reset the password of, disable,
 * delete, re-cover or re-role only a user who holds no permission the actor does not hold, and who
 * works only inside the actor's coverage (their stores, and their areas when the actor's are
 * limited); only an administrator touches an administrator; a role is given or taken only by one
 * who holds every permission in it (policies/roles.ts for the roles themselves). So no sequence of
 * allowed calls — a password reset then a sign-in as that user, a role edited then given — yields a
 * permission or a store the actor did not already have (access/escalation.test.ts walks them).
 *
 * Depot always keeps an active administrator. An administrator is an active, live user whose roles
 * grant both `users.update` and `roles.update` (whoever can give everyone else their rights back).
 * Every write that could take the last one away (disable, delete, a change of roles, a role's
 * permissions or members, a role deleted) checks it inside its transaction, after the change: a
 * refusal rolls the change back (422).
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

/** A set of permissions that makes an administrator (see ADMIN_PERMISSIONS). */
export function isAdministrator(permissions: ReadonlySet<string>): boolean {
  return ADMIN_PERMISSIONS.every((p) => permissions.has(p));
}

/** Does the actor hold every one of these permissions? */
export function holdsAll(actor: Actor, permissions: Iterable<string>): boolean {
  for (const p of permissions) if (!actor.permissions.has(p)) return false;
  return true;
}

/** A user as the rules judge them: what they may do and where. */
export interface UserSubject {
  id: number;
  deleted_at: string | null;
  /** Through their live roles. */
  permissions: ReadonlySet<string>;
  /** Their stores (`user_stores`) and home store. */
  storeIds: readonly number[];
  operationalDistrictIds: readonly number[];
  healthFacilityIds: readonly number[];
  /** The only active administrator: not to be disabled or deleted. */
  lastAdmin: boolean;
}

/** The subjects of some users, read for a whole page at once (in `db`: a write's transaction sees its own state). */
export async function userSubjects(
  db: Db,
  users: readonly { id: number; store_id: number | null; deleted_at: string | null }[],
): Promise<Map<number, UserSubject>> {
  const ids = users.map((u) => u.id);
  const out = new Map<number, UserSubject>();
  if (!ids.length) return out;
  const [permissions, stores, districts, facilities, admins] = await Promise.all([
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .innerJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select(['user_roles.user_id', 'permissions.name'])
      .where('roles.deleted_at', 'is', null)
      .where('user_roles.user_id', 'in', ids)
      .execute(),
    db.selectFrom('user_stores').select(['user_id', 'store_id']).where('user_id', 'in', ids).execute(),
    db
      .selectFrom('user_operational_districts')
      .select(['user_id', 'operational_district_id as id'])
      .where('user_id', 'in', ids)
      .execute(),
    db
      .selectFrom('user_health_facilities')
      .select(['user_id', 'health_facility_id as id'])
      .where('user_id', 'in', ids)
      .execute(),
    administratorIds(db),
  ]);
  for (const user of users) {
    const of = <T extends { user_id: number }>(rows: T[]) => rows.filter((r) => r.user_id === user.id);
    const storeIds = new Set(of(stores).map((r) => r.store_id));
    if (user.store_id !== null) storeIds.add(user.store_id);
    out.set(user.id, {
      id: user.id,
      deleted_at: user.deleted_at,
      permissions: new Set(of(permissions).map((r) => r.name)),
      storeIds: [...storeIds].sort((a, b) => a - b),
      operationalDistrictIds: of(districts).map((r) => r.id),
      healthFacilityIds: of(facilities).map((r) => r.id),
      lastAdmin: admins.length === 1 && admins[0] === user.id,
    });
  }
  return out;
}

/** One user's subject, or null when there is no such user. */
export async function userSubject(db: Db, id: number): Promise<UserSubject | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'store_id', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? ((await userSubjects(db, [row])).get(id) ?? null) : null;
}

/**
 * Does the actor's coverage hold all of the user's? Every store, for one who covers every store;
 * else the user covers some stores, all of them the actor's (a user who works nowhere, or
 * everywhere, is the business of those who cover every store), and, when the actor's areas are
 * limited, areas within theirs (a user given none is limited by none).
 */
export function coversUser(
  actor: Actor,
  user: Pick<UserSubject, 'permissions' | 'storeIds' | 'operationalDistrictIds' | 'healthFacilityIds'>,
): boolean {
  if (actor.coverage.all) return true;
  if (user.permissions.has('all_stores.view') || !user.storeIds.length) return false;
  if (!user.storeIds.every((s) => covers(actor, s))) return false;
  return areasWithin(actor, user.operationalDistrictIds, user.healthFacilityIds);
}

function areasWithin(actor: Actor, districts: readonly number[], facilities: readonly number[]): boolean {
  if (!limitsAreas(actor.coverage)) return true;
  if (!districts.length && !facilities.length) return false;
  const mine = new Set(actor.coverage.operationalDistrictIds ?? []);
  const mineFacilities = new Set(actor.coverage.healthFacilityIds ?? []);
  return districts.every((d) => mine.has(d)) && facilities.every((f) => mineFacilities.has(f));
}

/**
 * Why the actor may not manage this user, or null when they may: only an administrator touches an
 * administrator; otherwise the user holds no permission the actor lacks and works only in the
 * actor's coverage.
 */
function beyond(actor: Actor, user: UserSubject): 'users.administrator_only' | 'users.beyond_own' | null {
  if (isAdministrator(user.permissions) && !isAdministrator(actor.permissions)) return 'users.administrator_only';
  if (!holdsAll(actor, user.permissions) || !coversUser(actor, user)) return 'users.beyond_own';
  return null;
}

/**
 * Who sees a user (the list, the record, their coverage; phone, e-mail, date of birth, the last
 * sign-in's address): themselves, one who covers every store, or one who shares a store with them.
 * A user of no store is seen by those who cover every store only.
 */
export function seesUser(actor: Actor, user: Pick<UserSubject, 'id' | 'storeIds'>): boolean {
  return actor.coverage.all || actor.userId === user.id || user.storeIds.some((s) => covers(actor, s));
}

/** The list's scope of seesUser, in its query (counts agree with pages). */
export function usersScope<Q extends AnyQuery>(query: Q, actor: Actor): Q {
  if (actor.coverage.all) return query;
  const ids = actor.coverage.storeIds;
  const list = sql.join([0, ...ids]);
  return query.where(
    sql<boolean>`(users.id = ${actor.userId} or users.store_id in (${list}) or exists (select 1 from user_stores us where us.user_id = users.id and us.store_id in (${list})))`,
  ) as Q;
}

const live = (user: UserSubject) => user.deleted_at === null;

/**
 * What an actor may do to a user: edit (`update`), delete, disable, reset the password, change the
 * coverage (`assign`), change the roles (`roles`). Abilities and refusals come from these rules.
 */
export const userPolicy = definePolicy<UserSubject, keyof NonNullable<User['abilities']>>({
  visible: seesUser,
  actions: {
    update: (actor, user) => manage(actor, user, 'users.update').done(),
    reset_password: (actor, user) => manage(actor, user, 'users.update').done(),
    assign: (actor, user) => manage(actor, user, 'coverage.assign').done(),
    roles: (actor, user) => manage(actor, user, 'roles.assign').done(),
    delete: (actor, user) =>
      manage(actor, user, 'users.delete')
        .state(...keepsAdministrator(actor, user))
        .done(),
    disable: (actor, user) =>
      manage(actor, user, 'users.update')
        .state(...keepsAdministrator(actor, user))
        .done(),
  },
});

function manage(actor: Actor, user: UserSubject, permission: Parameters<typeof can>[1]) {
  const why = beyond(actor, user);
  return rule(actor)
    .permission(permission)
    .state(live(user), notFound)
    .unless(why === null, why ?? 'users.beyond_own');
}

/** Nobody disables or deletes themselves, nor the last active administrator (422). */
function keepsAdministrator(actor: Actor, user: UserSubject): [boolean, () => Error] {
  if (actor.userId === user.id) return [false, () => new AppError(422, 'users.self')];
  return [!user.lastAdmin, () => new AppError(422, 'users.last_admin')];
}

/** What the actor may do to a user now, for the record the API answers. */
export function userAbilities(actor: Actor, user: UserSubject): NonNullable<User['abilities']> {
  const abilities = userPolicy.abilities(actor, user);
  return Object.fromEntries(Object.entries(abilities).map(([k, v]) => [k, v === true])) as NonNullable<
    User['abilities']
  >;
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
  // a user of no store is outside every coverage but "every store": one who covers fewer gives one
  if (!actor.coverage.all && !storeIds.length) throw new FieldError({ [field]: [{ key: 'validation.required' }] });
}

/** The areas given to a user must be within the actor's, when the actor's are limited (422). */
export function assertAreasCovered(actor: Actor, districts: readonly number[], facilities: readonly number[]): void {
  if (!areasWithin(actor, districts, facilities)) {
    throw new FieldError({ operational_district_ids: [{ key: 'validation.areas_not_held' }] });
  }
}

/** Roles given or taken must hold no permission the actor lacks (422 on the field). */
export function assertRolesHeld(
  actor: Actor,
  roles: readonly { permissions: readonly string[] }[],
  field = 'role_ids',
): void {
  if (roles.some((r) => !holdsAll(actor, r.permissions))) {
    throw new FieldError({ [field]: [{ key: 'validation.role_not_held' }] });
  }
}

/** A user's stores as their input gives them: their stores and their home store. */
export function storesOf(input: Pick<UserInput, 'store_ids' | 'store_id'>): number[] {
  return [...new Set([...input.store_ids, ...(input.store_id ? [input.store_id] : [])])];
}

/** Roles given or taken: the actor may change roles (roles.assign) and holds all their permissions. */
async function assertRolesGiven(trx: Db, actor: Actor, roleIds: readonly number[]): Promise<void> {
  if (!roleIds.length) return;
  if (!actor.permissions.has('roles.assign')) throw forbidden();
  const rows = await rolePermissions(trx, roleIds);
  assertRolesHeld(
    actor,
    roleIds.map((id) => ({ permissions: rows.filter((r) => r.role_id === id).map((r) => r.name) })),
  );
}

/** The user as the rules judge them now, refused unless the actor may take `action` on them. */
export async function authorizeUser(
  trx: Db,
  actor: Actor,
  id: number,
  action: keyof NonNullable<User['abilities']>,
): Promise<UserSubject> {
  const subject = await userSubject(trx, id);
  if (!subject || subject.deleted_at !== null) throw notFound();
  userPolicy.authorize(actor, subject, action);
  return subject;
}

/**
 * The users' writes through the kit (modules/users/users.resources.ts): an edit or a deletion of
 * one the actor may manage (not themselves deleted); a user created with roles only by one who may
 * give roles; stores the actor covers; roles given or taken only within the actor's own
 * permissions, by one who may change that user's roles; a disable as `disable` rules.
 */
export const userWrites: ResourcePolicy<User, UserInput> = {
  async authorize(actor, action, row, trx) {
    if (action === 'delete') assertNotSelf(actor, row.id as number);
    await authorizeUser(trx, actor, row.id as number, action === 'delete' ? 'delete' : 'update');
  },
  write(actor, input, existing) {
    if (!existing && input.role_ids.length && !actor.permissions.has('roles.assign')) throw forbidden();
    return input;
  },
  async admit(actor, input, existing, trx) {
    assertStoresCovered(actor, 'store_ids', storesOf(input));
    if (!existing) return assertRolesGiven(trx, actor, input.role_ids);
    const id = existing.id as number;
    const before = await heldRoles(trx, id);
    const roles = [...new Set(input.role_ids)];
    const given = roles.filter((r) => !before.includes(r));
    const taken = before.filter((r) => !roles.includes(r));
    if (given.length || taken.length) {
      await authorizeUser(trx, actor, id, 'roles');
      await assertRolesGiven(trx, actor, [...given, ...taken]);
    }
    if (input.status === 'inactive' && existing.status === 'active') {
      assertNotSelf(actor, id);
      await authorizeUser(trx, actor, id, 'disable');
    }
  },
};
