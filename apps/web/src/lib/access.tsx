import { LANDINGS } from '@depot/contracts';
import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import { type Session, session } from './session.ts';

export function useSession(): Session {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** Outside React (route loaders). Mirrors the stored list only; the server still decides. */
export function can(permission: string | undefined, current: Session = session.get()): boolean {
  return !permission || current.permissions.includes(permission);
}

/**
 * Where a user lands after sign-in and at `/`: the landing of their roles (chosen in the role
 * editor; the server picks the first role, by name, whose screen they may open) when they may
 * still open it; otherwise a cashier (may sell, may not read reports) starts on the till and
 * everyone else on the dashboard.
 */
export function landingPath(current: Session = session.get()): string {
  const chosen = current.landing ? LANDINGS[current.landing] : null;
  if (chosen && can(chosen.permission, current)) return chosen.path;
  return can('orders.create', current) && !can('reports.view', current) ? '/pos' : '/dashboards';
}

/** The one access hook. */
export function useCan(permission: string | undefined): boolean {
  return can(permission, useSession());
}

/**
 * Whether the user covers a store, as the server said (`coverage` of sign-in and `/api/me`): the
 * stores a form offers where a store is written to (opening stock, a transfer's origin, a purchase,
 * a sale, a shift, a user's stores). Unknown coverage offers every store; the server still decides.
 */
export function covers(storeId: number, current: Session = session.get()): boolean {
  const coverage = current.coverage;
  return !coverage || coverage.all || coverage.store_ids.includes(storeId);
}

/** `covers` for a component: follows a change of the user's stores without a sign-out. */
export function useCovers(): (storeId: number) => boolean {
  const current = useSession();
  return (storeId: number) => covers(storeId, current);
}

/** Renders nothing unless the stored permissions include `permission` (spec section 6). */
export function Can({ permission, children }: { permission: string; children: ReactNode }) {
  return useCan(permission) ? children : null;
}

/** Renders nothing unless the stored roles include `role` (spec section 6). */
export function HasRole({ role, children }: { role: string; children: ReactNode }) {
  return useSession().roles.includes(role) ? children : null;
}
