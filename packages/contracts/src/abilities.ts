import { z } from 'zod';

/**
 * What the signed-in user may do with a record now, decided by the server's policies
 * (apps/server/src/policies/) and sent with every document, in lists and details, so the web app
 * shows exactly the buttons the server accepts. `true`: allowed; `false`: not (no permission, not
 * their store, or not in this state); `'approval'`: allowed once a manager's name and password are
 * entered at the till (the write carries `approval`, see approvalInput).
 */
export const ability = z.union([z.boolean(), z.literal('approval')]);
export type Ability = z.infer<typeof ability>;

/** The `abilities` object of a document with these actions: one Ability each. */
export function abilitiesOf<const A extends readonly string[]>(actions: A) {
  return z.object(
    Object.fromEntries(actions.map((action) => [action, ability])) as { [K in A[number]]: typeof ability },
  );
}
export type Abilities<A extends readonly string[]> = { [K in A[number]]: Ability };

/**
 * A manager's approval entered at the till, in the body of a write that needs one (a void of a paid
 * sale, a refund): the manager's sign-in name and password. Checked like a sign-in (throttled), and
 * the document records who approved.
 */
export const approvalInput = z.object({
  name: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
});
export type ApprovalInput = z.input<typeof approvalInput>;
