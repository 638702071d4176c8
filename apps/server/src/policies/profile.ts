import { notFound } from '../http/errors.ts';
import { type Actor, can } from './policy.ts';

/**
 * A user's profile. Whose picture the actor may change: their own, or anyone's with users.update.
 * Another user is not there for someone who may not manage users (404, as records out of reach
 * everywhere).
 */
export function assertChangesPicture(actor: Actor, userId: number): void {
  if (userId !== actor.userId && !can(actor, 'users.update')) throw notFound();
}
