import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { now } from '../db/database.ts';
import { prepared } from '../db/prepared.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that moves stock or money: an `Idempotency-Key` makes a retry safe (DESIGN.md section 3). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

const HEADER = 'idempotency-key';
const KEY = /^[\w.:-]{8,100}$/;

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

// Every sale and payment runs these two: compiled once (db/prepared.ts).
const claim = prepared(
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
const answered = prepared((db: Db, p: { userId: number; key: string; statusCode: number; response: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ status_code: p.statusCode, response: p.response })
    .where('user_id', '=', p.userId)
    .where('key', '=', p.key),
);

/**
 * A till that lost the answer retries with the same key. The first request claims the key (a
 * row, inserted before the work, so two at once cannot both run); its answer is stored when sent.
 * The same key and body again replays that answer; another body with the key is 422; a retry while
 * the first still runs is 409. A 5xx frees the key so the retry does the work.
 */
export function registerIdempotency(app: FastifyInstance, db: Db): void {
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = request.headers[HEADER];
    if (typeof key !== 'string' || !request.auth) return;
    if (!KEY.test(key)) throw new AppError(422, 'validation.format');
    const userId = request.auth.userId;
    const hash = fingerprint(request);
    const claimed = await claim(db, {
      key,
      user_id: userId,
      route: request.routeOptions.url ?? request.url,
      request_hash: hash,
      created_at: now(),
    });
    if (claimed.length === 1) {
      request.idempotencyKey = key;
      return;
    }
    const first = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (first.request_hash !== hash) {
      throw new AppError(422, 'idempotency.mismatch', undefined, { body: { code: 'idempotency_mismatch' } });
    }
    if (first.status_code === null) {
      throw new AppError(409, 'idempotency.in_flight', undefined, { body: { code: 'idempotency_in_flight' } });
    }
    return reply
      .code(first.status_code)
      .header('content-type', 'application/json; charset=utf-8')
      .header('idempotent-replayed', 'true')
      .send(first.response);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key || !request.auth) return payload;
    if (reply.statusCode >= 500) {
      await db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', request.auth.userId)
        .where('key', '=', key)
        .execute();
    } else {
      await answered(db, {
        userId: request.auth.userId,
        key,
        statusCode: reply.statusCode,
        response: String(payload),
      });
    }
    return payload;
  });
}
