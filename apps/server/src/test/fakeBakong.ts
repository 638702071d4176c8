import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the National Bank's Bakong Open API, for tests only: the three checks
 * Depot makes (by md5, by a list of md5s, by short hash with amount and currency), answered as
 * Bakong answers them (`{responseCode, responseMessage, errorCode, data}`), the bearer token
 * checked (errorCode 6 otherwise), and Bakong's refusal of calls from outside Cambodia (HTTP 403
 * with a page, not JSON) when `refuse` is set.
 */
export interface FakeTransaction {
  hash: string;
  fromAccountId?: string;
  toAccountId: string;
  currency: 'USD' | 'KHR';
  /** As Bakong writes it: dollars with cents, whole riel. */
  amount: number;
  description?: string;
}

export interface FakeBakong {
  url: string;
  /** Paid KHQRs, by the md5 of their payload. */
  byMd5: Map<string, FakeTransaction>;
  /** Transfers (any payment), by their whole hash. */
  transfers: FakeTransaction[];
  /** Every call: its path, bearer and body. */
  calls: { path: string; auth: string | undefined; body: unknown }[];
  /** Answer 403 with a page, as Bakong does to an address outside Cambodia. */
  refuse: boolean;
  close(): Promise<void>;
}

const found = (data: FakeTransaction) => ({
  responseCode: 0,
  responseMessage: 'Getting transaction successfully.',
  errorCode: null,
  data: { ...data, createdDateMs: Date.now() - 1000, acknowledgedDateMs: Date.now() },
});
const notFound = { responseCode: 1, responseMessage: 'Transaction could not be found.', errorCode: 1, data: null };

export async function startFakeBakong(token = 'test-token', port = 0): Promise<FakeBakong> {
  const fake = {
    byMd5: new Map<string, FakeTransaction>(),
    transfers: [] as FakeTransaction[],
    calls: [] as FakeBakong['calls'],
    refuse: false,
  };
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const body = text ? (JSON.parse(text) as unknown) : null;
      const path = request.url ?? '';
      fake.calls.push({ path, auth: request.headers.authorization, body });
      if (fake.refuse) {
        response.writeHead(403, { 'content-type': 'text/html' });
        response.end('<html><body><h1>403 Forbidden</h1></body></html>');
        return;
      }
      const send = (answer: object, status = 200) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer));
      };
      if (request.headers.authorization !== `Bearer ${token}`) {
        send({
          responseCode: 1,
          responseMessage: 'Unauthorized, not yet requested for token or code invalid',
          errorCode: 6,
          data: null,
        });
        return;
      }
      if (path === '/v1/check_transaction_by_md5') {
        const paid = fake.byMd5.get((body as { md5: string }).md5);
        send(paid ? found(paid) : notFound);
      } else if (path === '/v1/check_transaction_by_md5_list') {
        const md5s = body as string[];
        if (!Array.isArray(md5s) || md5s.length > 50) {
          send({ responseCode: 1, responseMessage: 'Missing required fields', errorCode: 5, data: null }, 400);
          return;
        }
        send({
          responseCode: 0,
          responseMessage: 'Getting transaction successfully.',
          errorCode: null,
          data: md5s.map((md5) => {
            const paid = fake.byMd5.get(md5);
            return paid
              ? { md5, status: 'SUCCESS', message: null, data: paid }
              : { md5, status: 'NOT_FOUND', message: 'Transaction could not be found.', data: null };
          }),
        });
      } else if (path === '/v1/check_transaction_by_short_hash') {
        const { hash, amount, currency } = body as { hash: string; amount: number; currency: string };
        // Bakong finds a transfer by its short hash only with its amount and currency
        const paid = [...fake.transfers, ...fake.byMd5.values()].find(
          (t) => t.hash.slice(0, 8) === hash && t.amount === amount && t.currency === currency,
        );
        send(paid ? found(paid) : notFound);
      } else {
        send({ message: 'Not Found' }, 404);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
