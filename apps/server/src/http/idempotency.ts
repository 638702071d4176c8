import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { now } from '../db/database.ts';
import { prepared } from '../db/prepared.ts';
import type { Claim } from '../db/transaction.ts';
import { AppError, StoredAnswer } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A POST that moves stock or money: an `Idempotency-Key` makes a retry safe (DESIGN.md section 3).
     * Its handler must write through `transaction(db, work, actor)` (db/transaction.ts), which
     * claims the key the actor carries.
     */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key of an idempotent request that carries one, its claim, and whether it was answered before. */
    idempotency: { key: string; claim: Claim; replayed: boolean; stored: boolean } | null;
  }
  interface FastifyInstance {
    /** Every idempotent route, `METHOD /path` (walked by the idempotency guard test). */
    idempotentRoutes: string[];
  }
}

const HEADER = 'idempotency-key';
const KEY = /^[\w.:-]{8,100}$/;

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

const mismatch = () => new AppError(422, 'idempotency.mismatch', undefined, { body: { code: 'idempotency_mismatch' } });

// A keyed sale runs these three: compiled once (db/prepared.ts).
const insertClaim = prepared(
  (db: Db, p: { key: string; user_id: number; route: string; request_hash: string; created_at: string }) =>
    db
      .insertInto('idempotency_keys')
      .values({
        key: p.key,
        user_id: p.user_id,
        route: p.route,
        request_hash: p.request_hash,
        created_at: p.created_at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returning('key'),
);
const keepResult = prepared((db: Db, p: { userId: number; key: string; result: string }) =>
  db.updateTable('idempotency_keys').set({ result: p.result }).where('user_id', '=', p.userId).where('key', '=', p.key),
);
const storeAnswer = prepared((db: Db, p: { userId: number; key: string; statusCode: number; response: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ status_code: p.statusCode, response: p.response })
    .where('user_id', '=', p.userId)
    .where('key', '=', p.key)
    .where('response', 'is', null),
);
const findClaim = prepared((db: Db, p: { userId: number; key: string }) =>
  db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'result', 'status_code', 'response'])
    .where('user_id', '=', p.userId)
    .where('key', '=', p.key),
);

/** The stored result, as `transaction()` answers it again. */
const resultOf = (stored: string) => ({ result: (JSON.parse(stored) as { value?: unknown }).value });

/**
 * A till that lost the answer retries with the same key. The key is claimed by the request's write
 * itself: `transaction()` inserts it as the transaction's first statement and keeps the work's
 * result beside it before the commit, so the claim and the work commit together or not at all. A
 * crash before the commit leaves nothing (the retry does the work); a crash after it leaves the
 * result (the retry's answer is rebuilt from it: the handler runs with the result and reads the
 * record it names). The answer, once sent, is stored too and replayed as it was (the claim finds
 * it, and the error handler sends it: StoredAnswer). Two requests with one key at once: the
 * second's claim waits for the first's commit (PostgreSQL's unique index; on SQLite transactions
 * run one at a time) and answers its result. Nothing is ever "in flight" after a crash. The same
 * key with another body is 422. No query before the handler: the claim is the only look-up.
 */
export function registerIdempotency(app: FastifyInstance, db: Db): void {
  app.decorateRequest('idempotency', null);
  const routes: string[] = [];
  app.decorate('idempotentRoutes', routes);

  // the hooks go on the keyed routes alone, ahead of their own: every other request (each list,
  // each search) would run two hooks for nothing
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`);
    route.preHandler = [claimKey, ...[route.preHandler ?? []].flat()];
    route.onSend = [storeAnswerOf, ...[route.onSend ?? []].flat()];
  });

  async function claimKey(request: FastifyRequest) {
    const key = request.headers[HEADER];
    if (typeof key !== 'string' || !request.auth) return;
    if (!KEY.test(key)) throw new AppError(422, 'validation.format');
    const userId = request.auth.userId;
    const hash = fingerprint(request);
    const keyed = {
      key,
      /** Its answer is rebuilt from the committed result (and stored once sent). */
      replayed: false,
      /** Its stored answer is sent again as it was. */
      stored: false,
      claim: {
        consumed: false,
        async take(trx: Db) {
          const claimed = await insertClaim(trx, {
            key,
            user_id: userId,
            route: request.routeOptions.url ?? request.url,
            request_hash: hash,
            created_at: now(),
          });
          if (claimed.length) return null;
          // the key was used before, or by a request that has just committed (this claim waited for it)
          const [row] = await findClaim(trx, { userId, key });
          if (!row || row.request_hash !== hash) throw mismatch();
          if (row.response !== null && row.status_code !== null) {
            keyed.stored = true;
            throw new StoredAnswer(row.status_code, row.response);
          }
          // its work committed, its answer was lost (a crash in between): rebuilt from its result
          keyed.replayed = true;
          return resultOf(row.result ?? '{}');
        },
        storeResult(trx: Db, result: unknown) {
          return { query: keepResult.compiled(trx, { userId, key, result: JSON.stringify({ value: result }) }) };
        },
      } satisfies Claim,
    };
    request.idempotency = keyed;
    // the claim travels with the request's actor, down to the transaction helper
    request.auth.claim = keyed.claim;
  }

  async function storeAnswerOf(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const keyed = request.idempotency;
    if (!keyed || keyed.stored || !request.auth || reply.statusCode >= 300) return payload;
    if (!keyed.claim.consumed) {
      // a keyed route that wrote outside transaction(): its key guards nothing (the guard test walks them)
      request.log.error({ route: request.routeOptions.url }, 'idempotent route did not claim its key');
      return payload;
    }
    if (keyed.replayed) reply.header('idempotent-replayed', 'true');
    // a refusal rolled the claim back with the work: only a success has a claim to answer for
    await storeAnswer(db, {
      userId: request.auth.userId,
      key: keyed.key,
      statusCode: reply.statusCode,
      response: String(payload),
    });
    return payload;
  }
}
