import { DEFAULT_ROLES, type DefaultRoleName, type Permission } from '@depot/contracts';
import type { Actor } from '../../../server/src/policies/policy.ts';

/**
 * The abilities the web's fixtures carry come from the server's own policies (apps/server/src/
 * policies), not from a copy of their rules: a rule changed on the server changes what these
 * fixtures say, so the web tests that read them see the change too. The policies are pure
 * functions of an actor and a record; the fixtures import them from the server's sources (the web
 * tests run in Node, and the web's tsconfig typechecks them like its own files).
 */
export { comboPolicy } from '../../../server/src/policies/combos.ts';
export { orderPolicy } from '../../../server/src/policies/orders.ts';
export { purchasePolicy } from '../../../server/src/policies/purchases.ts';
export { shiftPolicy } from '../../../server/src/policies/shifts.ts';
export { taxDocumentPolicy } from '../../../server/src/policies/taxDocuments.ts';
export { transferPolicy } from '../../../server/src/policies/transfers.ts';

/** Whose answer a fixture stands in for: a default role (or permissions), signed in as user 1, in store 1. */
export interface Viewer {
  /** A default role (the administrator when neither this nor `permissions` is given). */
  as?: DefaultRoleName;
  /** A user of a role of their own: these permissions. */
  permissions?: Permission[];
  /** The viewer's user id: a held order or a shift is theirs when it names them (default 1). */
  userId?: number;
  /** The stores they cover, when their role does not cover every store (default: store 1). */
  stores?: number[];
}

/** The server's actor for a viewer: their role's permissions, and the stores they cover. */
export function actorOf({ as = 'administrator', permissions: own, userId = 1, stores = [1] }: Viewer = {}): Actor {
  const role = DEFAULT_ROLES.find((r) => r.name === as);
  if (!role) throw new Error(`no default role ${as}`);
  const permissions = new Set<string>(own ?? (role.permissions as readonly Permission[]));
  return {
    userId,
    storeId: stores[0] ?? null,
    permissions,
    coverage: permissions.has('all_stores.view') ? { all: true, storeIds: [] } : { all: false, storeIds: stores },
  };
}
