import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';

/**
 * The queries of customer displays (display.service.ts). A pairing lives while it is not revoked
 * and the cashier's session lives: not revoked, its user active, a token of it not yet expired
 * (tokens end with the sign-in's absolute lifetime). Whatever ends the session ends its displays.
 */
function liveSessions(db: Db, at: string) {
  return db
    .selectFrom('display_pairings')
    .innerJoin('auth_sessions', 'auth_sessions.id', 'display_pairings.session_id')
    .innerJoin('users', 'users.id', 'auth_sessions.user_id')
    .where('display_pairings.revoked_at', 'is', null)
    .where('auth_sessions.revoked_at', 'is', null)
    .where('users.status', '=', 'active')
    .where('users.deleted_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('auth_tokens')
          .select('auth_tokens.id')
          .whereRef('auth_tokens.session_id', '=', 'auth_sessions.id')
          .where('auth_tokens.expires_at', '>', at),
      ),
    );
}

/** A paired display that still lives, by its id (the real-time sign-in) or its token's hash. */
export async function livePairing(
  db: Db,
  by: { id: number } | { tokenHash: string },
): Promise<{ id: number; session_id: number } | null> {
  const found = await liveSessions(db, now())
    .select(['display_pairings.id', 'display_pairings.session_id'])
    .where('display_pairings.paired_at', 'is not', null)
    .where((eb) =>
      'id' in by ? eb('display_pairings.id', '=', by.id) : eb('display_pairings.token_hash', '=', by.tokenHash),
    )
    .executeTakeFirst();
  return found ?? null;
}

/** A code waiting to be entered, not expired, of a session that lives. */
export async function waitingPairing(db: Db, codeHash: string): Promise<{ id: number } | null> {
  const at = now();
  const found = await liveSessions(db, at)
    .select('display_pairings.id')
    .where('display_pairings.code_hash', '=', codeHash)
    .where('display_pairings.paired_at', 'is', null)
    .where('display_pairings.code_expires_at', '>', at)
    .executeTakeFirst();
  return found ?? null;
}

/** This session's pairings not revoked: the paired ones and the one waiting for its code. */
export function sessionPairings(db: Db, sessionId: number) {
  return db
    .selectFrom('display_pairings')
    .select(['id', 'paired_at', 'code_expires_at'])
    .where('session_id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}
