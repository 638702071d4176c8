import { DEFAULT_ROLES, type Role, type RoleInput } from '@depot/contracts';
import type { Db } from '../db/database.ts';
import { AppError, FieldError } from '../http/errors.ts';
import type { ResourcePolicy } from '../kit/definition.ts';
import { rolePermissions } from '../modules/users/users.repository.ts';
import { type Actor, definePolicy, rule } from './policy.ts';
import { holdsAll } from './users.ts';

/**
 * Roles: a role is created, edited, reset, deleted, given or taken only by one who holds every
 * permission in it (and, for an edit or a reset, in what it becomes), so nobody makes a role
 * stronger than themselves and then takes it or gives it to an accomplice. Who may be given it is
 * the users' policy (policies/users.ts: `roles`).
 */
type RoleSubject = Pick<Role, 'name' | 'is_system' | 'permissions'>;

const defaultsOf = (role: RoleSubject) => DEFAULT_ROLES.find((r) => r.name === role.name)?.permissions ?? [];

export const rolePolicy = definePolicy<RoleSubject, keyof NonNullable<Role['abilities']>>({
  visible: () => true,
  actions: {
    update: (actor, role) => held(actor, role, 'roles.update').done(),
    reset: (actor, role) =>
      held(actor, role, 'roles.update')
        .state(role.is_system, () => new AppError(422, 'roles.not_system'))
        .unless(holdsAll(actor, defaultsOf(role)), 'roles.beyond_own')
        .done(),
    // a default role cannot be deleted (it can be reset)
    delete: (actor, role) =>
      held(actor, role, 'roles.delete')
        .state(!role.is_system, () => new AppError(422, 'roles.system'))
        .done(),
    assign: (actor, role) => held(actor, role, 'roles.assign').done(),
  },
});

function held(actor: Actor, role: RoleSubject, permission: 'roles.update' | 'roles.delete' | 'roles.assign') {
  return rule(actor).permission(permission).unless(holdsAll(actor, role.permissions), 'roles.beyond_own');
}

/** The role as the reader sees it, with what they may do to it. */
export function presentRole<R extends Role>(actor: Actor, role: R): R {
  const abilities = rolePolicy.abilities(actor, role);
  return {
    ...role,
    abilities: Object.fromEntries(Object.entries(abilities).map(([k, v]) => [k, v === true])) as NonNullable<
      Role['abilities']
    >,
  };
}

/** The permissions a role is written with: only ones the actor holds (422 on the field). */
export function assertPermissionsHeld(actor: Actor, permissions: readonly string[]): void {
  if (!holdsAll(actor, permissions)) throw new FieldError({ permissions: [{ key: 'validation.permission_not_held' }] });
}

/** The permissions the actor may put in a role (GET /api/permissions tells the role editor). */
export function grantable(actor: Actor, permissions: readonly string[]): string[] {
  return permissions.filter((p) => actor.permissions.has(p));
}

/** One of the default roles: the seed marks only the administrator's row, but each is one. */
export function isSystemRole(row: { name: string; is_system: number | boolean }): boolean {
  return row.is_system === 1 || row.is_system === true || DEFAULT_ROLES.some((r) => r.name === row.name);
}

/** A stored role as the rules judge it: its name, whether it is a default one, its permissions. */
async function roleSubject(trx: Db, row: Record<string, unknown>): Promise<RoleSubject> {
  const permissions = await rolePermissions(trx, [row.id as number]);
  return {
    name: row.name as string,
    is_system: isSystemRole(row as { name: string; is_system: number }),
    permissions: permissions.map((p) => p.name),
  };
}

/**
 * The roles' writes through the kit (modules/roles/roles.resources.ts): an edit or a deletion as
 * `rolePolicy` rules, and a role written with only permissions the actor holds.
 */
export const roleWrites: ResourcePolicy<Role, RoleInput> = {
  async authorize(actor, action, row, trx) {
    rolePolicy.authorize(actor, await roleSubject(trx, row), action === 'delete' ? 'delete' : 'update');
  },
  async admit(actor, input) {
    assertPermissionsHeld(actor, input.permissions);
  },
  present: (actor, role) => presentRole(actor, role as Role),
};
