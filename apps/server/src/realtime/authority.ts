import type { Db } from '../db/database.ts';
import { livePairing } from '../modules/display/display.repository.ts';
import { type Coverage, EVERY_STORE } from '../policies/coverage.ts';
import { type ChannelAsker, displayAsker, mayListen } from './channels.ts';

/**
 * What a user may listen to now, read from the database for the real-time endpoint (a socket has
 * no request to authenticate): null for a user who may no longer connect (disabled or deleted),
 * else the channel rules of channels.ts with their coverage as policies/coverage.ts defines it
 * (every store with all_stores.view, else their user_stores and home store).
 */
export async function channelAuthority(db: Db, userId: string): Promise<((channel: string) => boolean) | null> {
  // a paired customer display: its pairing's channel while the cashier's session lives
  const display = /^display:(\d{1,15})$/.exec(userId);
  if (display) {
    const pairing = await livePairing(db, { id: Number(display[1]) });
    return pairing ? (channel) => mayListen(displayAsker(pairing.id), channel) : null;
  }
  const id = Number(userId);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'full_name', 'store_id'])
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) return null;
  const everyStore = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .where('user_roles.user_id', '=', id)
    .where('roles.deleted_at', 'is', null)
    .where('permissions.name', '=', 'all_stores.view')
    .executeTakeFirst();
  let coverage: Coverage = EVERY_STORE;
  if (!everyStore) {
    const stores = await db.selectFrom('user_stores').select('store_id').where('user_id', '=', id).execute();
    const ids = new Set(stores.map((s) => s.store_id));
    if (user.store_id !== null) ids.add(user.store_id);
    coverage = { all: false, storeIds: [...ids].sort((a, b) => a - b) };
  }
  const asker: ChannelAsker = { userId: id, name: user.name, fullName: user.full_name, coverage };
  return (channel) => mayListen(asker, channel);
}
