/**
 * The Bakong Open API's payment check (`POST /v1/check_transaction_by_md5`), optional: configured
 * by `BAKONG_API_TOKEN` (and `BAKONG_API_URL`), the server asks Bakong whether the QR with this md5
 * was paid. Without a token there is no client, and the cashier confirms payments by hand.
 */

export interface BakongConfig {
  token: string;
  /** The API's base, `https://api-bakong.nbc.gov.kh` by default. */
  url: string;
  /** How long to wait for an answer (Bakong is across the internet; the till waits on it). */
  timeoutMs?: number;
}

export type BakongAnswer =
  | { found: false }
  | { found: true; hash: string; toAccountId: string; currency: string; amount: number };

/** Bakong did not answer, or answered something that is not its API's shape. */
export class BakongUnreachable extends Error {}

export function bakongClient(config: BakongConfig) {
  const base = config.url.replace(/\/+$/, '');
  return {
    async checkByMd5(md5: string): Promise<BakongAnswer> {
      let body: {
        responseCode?: number;
        data?: { hash?: string; toAccountId?: string; currency?: string; amount?: number } | null;
      };
      try {
        const response = await fetch(`${base}/v1/check_transaction_by_md5`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${config.token}` },
          body: JSON.stringify({ md5 }),
          signal: AbortSignal.timeout(config.timeoutMs ?? 8000),
        });
        if (!response.ok) throw new BakongUnreachable(`HTTP ${response.status}`);
        body = (await response.json()) as typeof body;
      } catch (error) {
        throw error instanceof BakongUnreachable ? error : new BakongUnreachable(String(error));
      }
      // responseCode 0 with data: found; 1: "Transaction could not be found"
      if (body.responseCode !== 0 || !body.data) {
        if (body.responseCode === 1) return { found: false };
        throw new BakongUnreachable(`unexpected answer ${body.responseCode}`);
      }
      const { hash, toAccountId, currency, amount } = body.data;
      if (typeof hash !== 'string' || typeof toAccountId !== 'string' || typeof amount !== 'number') {
        throw new BakongUnreachable('unexpected transaction shape');
      }
      return { found: true, hash, toAccountId, currency: String(currency ?? ''), amount };
    },
  };
}

export type BakongClient = ReturnType<typeof bakongClient>;
