import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  DISPLAY_CODE_ALPHABET,
  DISPLAY_CODE_LENGTH,
  DISPLAY_ENDED_EVENT,
  DISPLAY_EVENT,
  type DisplayState,
  displayChannel,
} from '@depot/contracts';
import type { AuthContext } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import { displayAsker, displaySocketId } from '../../realtime/channels.ts';
import type { ChannelAuth, Realtime } from '../../realtime/realtime.ts';
import type { Throttle } from '../auth/login-throttle.ts';
import { livePairing, sessionPairings, waitingPairing } from './display.repository.ts';

/** How long a pairing code may be entered. */
export const CODE_MINUTES = 5;
/** What a display's message may weigh, under the real-time limit (protocol.ts `LIMITS.broadcastBytes`). */
const MESSAGE_BYTES = 9 * 1024;
/** The throttle's name for wrong codes (counted per address with the sign-in failures). */
const THROTTLE_NAME = 'display-pairing-code';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function newCode(): string {
  let code = '';
  for (let i = 0; i < DISPLAY_CODE_LENGTH; i++) code += DISPLAY_CODE_ALPHABET[randomInt(DISPLAY_CODE_ALPHABET.length)];
  return code;
}

/**
 * A customer display on a tablet (issue 28), paired with a till's session:
 *
 * - the cashier asks for a code (`start`), six characters valid for five minutes; a new code
 *   unpairs any display this session had;
 * - the tablet enters it (`pair`, a public route, wrong codes throttled per address); it gets a
 *   display token, kept only as SHA-256, and its channel `private-display.{id}`;
 * - the token is no API token (the access hook never reads this table): it signs the display's
 *   socket in (`display:{id}`) and signs its one channel, nothing else (realtime/channels.ts);
 * - the till sends what the screen shows (`publish`), to its own session's display only;
 * - all of it ends with the cashier's session (display.repository.ts `livePairing`).
 */
export function displayService(db: Db, throttle: Throttle, realtime: Realtime) {
  /** Unpairs this session's displays: each is told, and its sockets closed. */
  const endAll = async (sessionId: number) => {
    const ids = (await sessionPairings(db, sessionId)).map((row) => row.id);
    if (!ids.length) return;
    await db
      .updateTable('display_pairings')
      .set({ revoked_at: now(), code_hash: null })
      .where('id', 'in', ids)
      .where('revoked_at', 'is', null)
      .execute();
    await Promise.all(ids.map((id) => realtime.broadcast(displayChannel(id), DISPLAY_ENDED_EVENT, {})));
    await realtime.recheck(ids.map(displaySocketId), { close: true });
  };

  return {
    async start(actor: AuthContext): Promise<{ code: string; expires_at: string }> {
      await endAll(actor.sessionId);
      const at = now();
      const expires = new Date(Date.parse(at) + CODE_MINUTES * 60_000).toISOString();
      // a code taken by another waiting pairing (unique): another one
      for (let attempt = 0; ; attempt++) {
        const code = newCode();
        try {
          await db
            .insertInto('display_pairings')
            .values({
              session_id: actor.sessionId,
              user_id: actor.userId,
              store_id: actor.storeId,
              code_hash: sha256(code),
              code_expires_at: expires,
              created_at: at,
            })
            .execute();
          return { code, expires_at: expires };
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    },

    async status(actor: AuthContext): Promise<{ paired: boolean; waiting: boolean }> {
      const rows = await sessionPairings(db, actor.sessionId);
      const at = now();
      return {
        paired: rows.some((row) => row.paired_at !== null),
        waiting: rows.some((row) => row.paired_at === null && row.code_expires_at > at),
      };
    },

    end: (actor: AuthContext) => endAll(actor.sessionId),

    async pair(code: string, address: string): Promise<{ token: string; channel: string; pairing_id: number }> {
      const state = await throttle.check(THROTTLE_NAME, address);
      if (state.blocked > 0) {
        throw new AppError(
          429,
          'display.throttled',
          { seconds: state.blocked },
          { headers: { 'retry-after': String(state.blocked) } },
        );
      }
      const wrong = async () => {
        await throttle.fail(THROTTLE_NAME, address);
        return new FieldError({ code: [{ key: 'display.code_wrong' }] });
      };
      if (code.length !== DISPLAY_CODE_LENGTH) throw await wrong();
      const waiting = await waitingPairing(db, sha256(code));
      if (!waiting) throw await wrong();
      const token = `dpd_${randomBytes(32).toString('base64url')}`;
      // once: two tablets typing the same code, one gets it
      const taken = await db
        .updateTable('display_pairings')
        .set({ token_hash: sha256(token), paired_at: now(), code_hash: null })
        .where('id', '=', waiting.id)
        .where('paired_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) throw await wrong();
      await throttle.succeed(THROTTLE_NAME, address);
      return { token, channel: displayChannel(waiting.id), pairing_id: waiting.id };
    },

    /** The pairing a display token stands for, while it lives; else 401. */
    async displayOf(authorization: string | undefined): Promise<number> {
      const token = /^Bearer (dpd_[A-Za-z0-9_-]{43})$/.exec(authorization ?? '')?.[1];
      const pairing = token ? await livePairing(db, { tokenHash: sha256(token) }) : null;
      if (!pairing) throw new AppError(401, 'display.unpaired');
      return pairing.id;
    },

    /** Signs the display's socket into its one channel (`/api/display/auth`); any other: 403. */
    async authorize(pairingId: number, socketId: string, channel: string): Promise<ChannelAuth> {
      const answer = realtime.authorize(displayAsker(pairingId), socketId, channel);
      if (!answer) throw new AppError(403, 'broadcasting.forbidden');
      return answer;
    },

    signin: (pairingId: number, socketId: string) => realtime.signin(displayAsker(pairingId), socketId),

    /** What the till's customer sees now, to the displays of the till's own session. */
    async publish(actor: AuthContext, state: DisplayState): Promise<number> {
      const paired = (await sessionPairings(db, actor.sessionId)).filter((row) => row.paired_at !== null);
      // a real-time message is small (10 kB): long names leave the oldest lines out, counted in `earlier`
      let shown = state;
      while (shown.lines.length > 1 && Buffer.byteLength(JSON.stringify(shown)) > MESSAGE_BYTES) {
        shown = { ...shown, lines: shown.lines.slice(1), earlier: shown.earlier + 1 };
      }
      await Promise.all(paired.map((row) => realtime.broadcast(displayChannel(row.id), DISPLAY_EVENT, shown)));
      return paired.length;
    },
  };
}

export type DisplayService = ReturnType<typeof displayService>;
