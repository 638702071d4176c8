import { type Actor, can } from './policy.ts';

/**
 * Reports and the dashboard. An administrator's dashboard (sessions, connections, the audit's
 * latest) is shown to who may read the audit trail (audit.list).
 */
export function seesAdminDashboard(actor: Actor): boolean {
  return can(actor, 'audit.list');
}
