import type { ApprovalInput } from '@depot/contracts';
import { FieldError } from '../http/errors.ts';
import { type AuthService, throttled } from '../modules/auth/auth.service.ts';
import type { Approver } from './policy.ts';

/**
 * A manager's approval entered at the till: the manager types their sign-in name and password on
 * the cashier's screen, and the write that needed it (a void of a paid sale, a refund; later credit
 * over a customer's limit, a shift's difference) goes through. One module, for every such write:
 *
 * 1. the route hands the body's `approval` (contracts' approvalInput) to `identify`, before the
 *    write's transaction (a password check takes tens of milliseconds: no lock waits on it);
 *    wrong or unknown credentials are refused on the `approval` field (422), and counted by the
 *    sign-in throttle (login-throttle.ts: refused per name and address and per address, a growing
 *    delay per name for addresses the manager never signed in from; 429 with Retry-After); a
 *    temporary password (reset by an administrator, must_change_password) approves nothing (422);
 * 2. the write's policy decides, with the record locked, whether the approver may approve this
 *    (holds the permission the rule names and covers the record's store: else 422 on `approval`);
 *    without an approval where one is needed, 403 `approval_required` (the web app asks for one);
 * 3. the document records who approved (`approved_by`).
 */
export function approvalService(auth: Pick<AuthService, 'checkCredentials' | 'actorOf'>) {
  return {
    /** The approving manager as an actor, or null when the request carries no approval. */
    async identify(approval: ApprovalInput | null | undefined, address: string): Promise<Approver | null> {
      if (!approval) return null;
      const checked = await auth.checkCredentials(approval.name, approval.password, address);
      if (!checked.ok) {
        if (checked.reason === 'throttled' || checked.reason === 'slowed') {
          throw throttled(checked.retryAfter, {}, checked.reason === 'slowed');
        }
        throw new FieldError({ approval: [{ key: checked.reason === 'failed' ? 'auth.failed' : 'auth.disabled' }] });
      }
      // a password an administrator set (to be changed at the next sign-in) is known to them too:
      // it is not the manager's own, and approves nothing
      if (checked.mustChangePassword) throw new FieldError({ approval: [{ key: 'approval.temporary_password' }] });
      const approver = await auth.actorOf(checked.userId);
      if (!approver) throw new FieldError({ approval: [{ key: 'auth.disabled' }] });
      return approver;
    },
  };
}

export type ApprovalService = ReturnType<typeof approvalService>;
