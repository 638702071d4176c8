import { z } from 'zod';
import { type OutboundClient, OutboundUnreachable, outboundClient } from '../../http/outbound.ts';

/**
 * The National Bank's Bakong Open API (https://api-bakong.nbc.gov.kh/document), the calls Depot
 * makes, through the one outbound client (http/outbound.ts):
 *
 * - `POST /v1/check_transaction_by_md5` `{md5}`: the payment of a KHQR, found by the md5 of its payload;
 * - `POST /v1/check_transaction_by_md5_list` `[md5, …]` (at most 50): the same for many, each
 *   answered `{md5, status: SUCCESS | NOT_FOUND | …, data}`;
 * - `POST /v1/check_transaction_by_short_hash` `{hash, amount, currency}`: a transfer, found by the
 *   first 8 characters of its hash (what a bank app shows on the receipt) with its amount.
 *
 * Every call carries the bearer token (a JWT issued at registration, valid about 90 days, renewed
 * with `/v1/renew_token` by the registered email; docs/OPERATIONS.md). Answers are
 * `{responseCode: 0 | 1, responseMessage, errorCode, data}`: code 0 with data is found; errorCode 1
 * "Transaction could not be found"; errorCode 6 "Unauthorized" (a wrong or expired token).
 * Bakong answers only calls from Cambodian addresses: from elsewhere it refuses with HTTP 403, so
 * a server abroad calls through a relay in Cambodia (`BAKONG_RELAY_URL`, same paths and headers).
 */

export interface BakongConfig {
  token: string;
  /** The API's base, `https://api-bakong.nbc.gov.kh` by default. */
  url: string;
  /** A relay in Cambodia that forwards the same calls to Bakong: used instead of `url` when set. */
  relayUrl?: string | null;
  /** How long to wait for an answer (Bakong is across the internet; the till waits on it). */
  timeoutMs?: number;
  /** How long a till's dynamic KHQR may be paid, in minutes (at most 10). */
  qrMinutes?: number;
}

/** A transaction as Bakong describes it: amounts are decimals (dollars with cents, whole riel). */
const transaction = z.object({
  hash: z.string().min(1),
  fromAccountId: z.string().nullish(),
  toAccountId: z.string(),
  currency: z.string(),
  amount: z.number(),
  description: z.string().nullish(),
  createdDateMs: z.number().nullish(),
  acknowledgedDateMs: z.number().nullish(),
});
export type BakongTransaction = z.infer<typeof transaction>;

const envelope = z.object({
  responseCode: z.number(),
  responseMessage: z.string().nullish(),
  errorCode: z.number().nullish(),
  data: z.unknown(),
});

const listItem = z.object({ md5: z.string(), status: z.string(), data: transaction.nullish() });

export type BakongAnswer = { found: false } | ({ found: true } & BakongTransaction);

/**
 * Why Bakong gave no answer: not reached (or its servers failing), refused because the call did
 * not come from Cambodia, the token refused, or an answer that is not the API's shape.
 */
export type BakongProblem = 'unreachable' | 'refused' | 'token' | 'answer';

export class BakongError extends Error {
  constructor(
    readonly problem: BakongProblem,
    detail: string,
  ) {
    super(`Bakong ${problem}: ${detail}`);
    this.name = 'BakongError';
  }
}

/** How many md5s one list call may carry (Bakong's limit). */
export const MD5_LIST_MAX = 50;

/** The md5s Bakong found paid, by md5, with their transactions; the rest were not found. */
export type Md5ListAnswer = Map<string, BakongTransaction>;

export function bakongClient(config: BakongConfig, http?: OutboundClient) {
  const client =
    http ??
    outboundClient({
      baseUrl: config.relayUrl || config.url,
      timeoutMs: config.timeoutMs ?? 8000,
      headers: { authorization: `Bearer ${config.token}` },
    });

  /** One call: its envelope when Bakong answered as its API does, a BakongError otherwise. */
  async function call(path: string, body: unknown) {
    let reply: Awaited<ReturnType<OutboundClient['postJson']>>;
    try {
      reply = await client.postJson(path, body);
    } catch (error) {
      if (!(error instanceof OutboundUnreachable)) throw error;
      // a page that is not JSON with 403: the address refused (Bakong's gate, before its API)
      if (error.status === 403) throw new BakongError('refused', error.message);
      throw new BakongError('unreachable', error.message);
    }
    if (reply.status === 403) throw new BakongError('refused', `HTTP 403 ${JSON.stringify(reply.body)}`);
    if (reply.status === 401) throw new BakongError('token', 'HTTP 401');
    if (reply.status >= 500 || reply.status === 429) throw new BakongError('unreachable', `HTTP ${reply.status}`);
    const parsed = envelope.safeParse(reply.body);
    if (!parsed.success) throw new BakongError('answer', `HTTP ${reply.status}, not the API's answer`);
    if (parsed.data.errorCode === 6) throw new BakongError('token', parsed.data.responseMessage ?? 'Unauthorized');
    return parsed.data;
  }

  /** A single transaction's answer: found with its data, or not found (errorCode 1). */
  function single(answer: z.infer<typeof envelope>): BakongAnswer {
    if (answer.responseCode === 0 && answer.data) {
      const found = transaction.safeParse(answer.data);
      if (!found.success) throw new BakongError('answer', 'unexpected transaction shape');
      return { found: true, ...found.data };
    }
    if (answer.responseCode === 1 && (answer.errorCode === 1 || answer.errorCode == null)) return { found: false };
    throw new BakongError('answer', `responseCode ${answer.responseCode}, errorCode ${answer.errorCode}`);
  }

  return {
    /** The base URL the calls go to (the relay's when one is set). */
    base: config.relayUrl || config.url,
    qrMinutes: config.qrMinutes ?? 10,

    async checkByMd5(md5: string): Promise<BakongAnswer> {
      return single(await call('/v1/check_transaction_by_md5', { md5 }));
    },

    /** A transfer by its short hash (8 hexadecimal characters), its amount (a decimal) and currency. */
    async checkByShortHash(hash: string, amount: number, currency: string): Promise<BakongAnswer> {
      return single(await call('/v1/check_transaction_by_short_hash', { hash, amount, currency }));
    },

    /** Many KHQRs at once, in calls of at most 50: the ones paid, by md5. */
    async checkByMd5List(md5s: readonly string[]): Promise<Md5ListAnswer> {
      const paid: Md5ListAnswer = new Map();
      for (let i = 0; i < md5s.length; i += MD5_LIST_MAX) {
        const answer = await call('/v1/check_transaction_by_md5_list', md5s.slice(i, i + MD5_LIST_MAX));
        if (answer.responseCode !== 0) {
          // none of them found is answered as a failure by some versions of the API
          if (answer.errorCode === 1 || answer.errorCode == null) continue;
          throw new BakongError('answer', `responseCode ${answer.responseCode}, errorCode ${answer.errorCode}`);
        }
        const items = z.array(listItem).safeParse(answer.data ?? []);
        if (!items.success) throw new BakongError('answer', 'unexpected list shape');
        for (const item of items.data) if (item.status === 'SUCCESS' && item.data) paid.set(item.md5, item.data);
      }
      return paid;
    },
  };
}

export type BakongClient = ReturnType<typeof bakongClient>;

/** When a JWT token expires (its `exp`), or null when it is not a JWT with one. */
export function tokenExpiry(token: string): Date | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const { exp } = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' ? new Date(exp * 1000) : null;
  } catch {
    return null;
  }
}
