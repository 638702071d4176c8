import { displayChannel } from '@depot/contracts';
import type { AuthContext } from '../access/access.ts';
import { type Coverage, coversStore } from '../policies/coverage.ts';

/** The stores a user's work covers: the policy module's coverage (policies/coverage.ts). */
export type StoreCoverage = Coverage;

/** Who asks to listen to a channel (from the bearer token of `/broadcasting/auth`). */
export interface ChannelAsker {
  userId: number;
  name: string;
  fullName: string | null;
  coverage: StoreCoverage;
  /**
   * A paired customer display (modules/display), not a user: it may listen to its pairing's
   * channel and to nothing else, and no user may listen to a display's channel.
   */
  display?: number;
}

/** A customer display as an asker: no user, no store, its pairing's channel alone. */
export function displayAsker(pairingId: number): ChannelAsker {
  return { userId: 0, name: 'display', fullName: null, coverage: { all: false, storeIds: [] }, display: pairingId };
}

/** How a display's socket signs in (`pusher:signin` user id): never a number, so never a user's. */
export const displaySocketId = (pairingId: number) => `display:${pairingId}`;

/**
 * The asker from the access hook's context: their coverage is the request's (every store with
 * `all_stores.view`, else their `user_stores` and home store), the same the policies read, so a
 * store's private channels follow the stores a user works in.
 */
export function askerOf(auth: AuthContext): ChannelAsker {
  return {
    userId: auth.userId,
    name: auth.name,
    fullName: auth.profile.full_name,
    coverage: auth.coverage,
  };
}

const covers = coversStore;

/**
 * Every channel a client may be signed into, with who may (as Laravel's `routes/channels.php`).
 * The names are laravel-echo's (`contracts/realtime.ts` `channelNames`) with their wire prefix. A
 * channel that matches none is refused, so a new channel is a line here.
 */
const CHANNELS: { pattern: RegExp; allows: (asker: ChannelAsker, id: number) => boolean }[] = [
  // one user's own: notifications, their permissions
  { pattern: /^private-App\.Models\.User\.(\d+)$/, allows: (asker, id) => asker.userId === id },
  // one store's documents and stock, for those whose coverage includes the store
  { pattern: /^private-stores\.(\d+)$/, allows: (asker, id) => covers(asker.coverage, id) },
  // who is working in a store right now (presence: members are users, counted once however many tabs)
  { pattern: /^presence-stores\.(\d+)$/, allows: (asker, id) => covers(asker.coverage, id) },
  // what every signed-in user sees change: the exchange rate, the settings
  { pattern: /^private-depot$/, allows: () => true },
];

/** Whether the asker may listen to the channel (its wire name, `private-…` or `presence-…`). */
export function mayListen(asker: ChannelAsker, channel: string): boolean {
  if (asker.display !== undefined) return channel === displayChannel(asker.display);
  for (const { pattern, allows } of CHANNELS) {
    const match = pattern.exec(channel);
    if (match) return allows(asker, Number(match[1] ?? 0));
  }
  return false;
}

/** What a presence channel says about a member (`here()`, `joining()`, `leaving()` in laravel-echo). */
export function presenceMember(asker: ChannelAsker) {
  return { user_id: asker.userId, user_info: { id: asker.userId, name: asker.name, full_name: asker.fullName } };
}
