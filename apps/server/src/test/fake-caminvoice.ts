import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A CamInvoice of our own, for tests only: the merchant API's shapes as GDT's integration sample
 * and Postman collection show them (modules/einvoice/caminvoice.client.ts lists the endpoints).
 * It approves a connection, issues and refreshes tokens (and refuses a revoked grant or an expired
 * access token), clears documents (refusing a second with the same number), answers status,
 * search, poll and XML, knows businesses by TIN, holds suppliers' documents for the business, and
 * sends webhooks. Nothing in Depot knows it: Depot is pointed at its address.
 */

export interface FakeDocument {
  id: string;
  number: string;
  type: string;
  xml: string;
  status: string;
  reason: string | null;
  direction: 'SEND' | 'RECEIVE';
  updated_at: string;
  supplier?: { name: string; tin: string; endpoint: string };
}

export const FAKE_CLIENT = { id: 'depot-test-client', secret: 'depot-test-secret-0123456789' };
export const FAKE_BUSINESS = {
  endpoint_id: 'KHUID00001234',
  tin: 'K001-901234567',
  company_name_en: 'Depot Phnom Penh Co., Ltd.',
  company_name_kh: 'ដេប៉ូ ភ្នំពេញ',
};

export async function startFakeCamInvoice(port = 0) {
  const documents: FakeDocument[] = [];
  const calls: { method: string; path: string }[] = [];
  const submissions: string[] = [];
  const state = {
    authTokens: new Set<string>(),
    refreshToken: `rt-${randomUUID()}`,
    accessTokens: new Map<string, number>(),
    revoked: false,
    /** Seconds an access token lives. */
    accessSeconds: 3600,
    refreshes: 0,
    /** The next submission is refused with this message. */
    refuseNext: null as string | null,
    /** The next submission is kept but its answer never sent (the connection is cut). */
    dropNextAnswer: false,
    businesses: [
      {
        endpoint_id: 'KHUID00005678',
        tin: 'K002-100200300',
        company_name_en: 'Sokha Mart',
        company_name_kh: 'ហាងលក់ទំនិញ សុខា',
        address: 'Street 63',
        city: 'Phnom Penh',
      },
    ],
  };
  const basic = `Basic ${Buffer.from(`${FAKE_CLIENT.id}:${FAKE_CLIENT.secret}`).toString('base64')}`;

  function issueAccess() {
    const token = `at-${randomUUID()}`;
    state.accessTokens.set(token, Date.now() + state.accessSeconds * 1000);
    return { access_token: token, expires_in: state.accessSeconds, token_type: 'Bearer' };
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push({ method: req.method ?? '', path: url.pathname });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const path = url.pathname;

    if (req.method === 'GET' && path === '/connect') {
      if (url.searchParams.get('client_id') !== FAKE_CLIENT.id) return json(400, { message: 'unknown client' });
      const authToken = `auth-${randomUUID()}`;
      state.authTokens.add(authToken);
      const back = new URL(url.searchParams.get('redirect_url') ?? '');
      back.searchParams.set('authToken', authToken);
      const s = url.searchParams.get('state');
      if (s) back.searchParams.set('state', s);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (path === '/api/v1/auth/authorize/connect' || path === '/api/v1/auth/token') {
      if (req.headers.authorization !== basic) return json(401, { message: 'bad client credentials' });
      if (path.endsWith('/connect')) {
        if (!state.authTokens.delete(String(body.auth_token))) return json(400, { message: 'invalid auth_token' });
        state.revoked = false;
        state.refreshToken = `rt-${randomUUID()}`;
        return json(200, { business_info: FAKE_BUSINESS, refresh_token: state.refreshToken, ...issueAccess() });
      }
      if (state.revoked || body.refresh_token !== state.refreshToken) return json(401, { message: 'invalid_grant' });
      state.refreshes += 1;
      return json(200, issueAccess());
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const until = state.accessTokens.get(bearer);
    if (!until || until < Date.now() || state.revoked) return json(401, { message: 'unauthorized' });

    if (req.method === 'POST' && path === '/api/v1/document') {
      const [doc] = body.documents as { document_type: string; document: string }[];
      const xml = Buffer.from(doc.document, 'base64').toString('utf8');
      const number = /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(xml)?.[1] ?? '';
      submissions.push(number);
      if (state.refuseNext) {
        const message = state.refuseNext;
        state.refuseNext = null;
        return json(200, { valid_documents: [], failed_documents: [{ document_number: number, message }] });
      }
      if (documents.some((d) => d.direction === 'SEND' && d.number === number)) {
        return json(200, {
          valid_documents: [],
          failed_documents: [{ document_number: number, message: 'Duplicate document number' }],
        });
      }
      const made: FakeDocument = {
        id: randomUUID(),
        number,
        type: doc.document_type,
        xml,
        status: 'VALID',
        reason: null,
        direction: 'SEND',
        updated_at: new Date().toISOString(),
      };
      documents.push(made);
      if (state.dropNextAnswer) {
        state.dropNextAnswer = false;
        req.socket.destroy();
        return;
      }
      return json(200, {
        valid_documents: [{ document_id: made.id, document_number: number, verification_link: verification(made) }],
        failed_documents: [],
      });
    }
    const detail = (d: FakeDocument) => ({
      document_id: d.id,
      document_number: d.number,
      document_type: d.type,
      status: d.status,
      reason: d.reason,
      verification_link: verification(d),
      issue_date: '2026-11-20',
      supplier_id: d.supplier?.endpoint ?? FAKE_BUSINESS.endpoint_id,
      supplier_company_name_kh: d.supplier?.name ?? FAKE_BUSINESS.company_name_kh,
      supplier_vattin: d.supplier?.tin ?? FAKE_BUSINESS.tin,
      updated_at: d.updated_at,
    });
    if (req.method === 'GET' && path === '/api/v1/document') {
      const keyword = url.searchParams.get('keyword') ?? '';
      const type = url.searchParams.get('type') === 'received' ? 'RECEIVE' : 'SEND';
      return json(200, {
        data: documents.filter((d) => d.direction === type && d.number.includes(keyword)).map(detail),
      });
    }
    if (req.method === 'GET' && path === '/api/v1/document/poll') {
      const since = url.searchParams.get('last_synced_at') ?? '';
      return json(200, {
        documents: documents
          .filter((d) => d.updated_at >= since)
          .map((d) => ({ document_id: d.id, updated_at: d.updated_at, type: d.direction })),
      });
    }
    if (req.method === 'POST' && path === '/api/v1/document/send')
      return json(200, { sent_documents: body.documents, failed_documents: [] });
    const one = /^\/api\/v1\/document\/([^/]+)(\/xml)?$/.exec(path);
    if (req.method === 'GET' && one) {
      const d = documents.find((x) => x.id === one[1]);
      if (!d) return json(404, { message: 'not found' });
      if (one[2]) {
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(d.xml);
      }
      return json(200, detail(d));
    }
    if (req.method === 'GET' && path === '/api/v1/business') {
      const keyword = url.searchParams.get('keyword') ?? '';
      return json(200, {
        data: state.businesses.filter((b) => b.tin.includes(keyword) || b.company_name_en.includes(keyword)),
      });
    }
    return json(404, { message: 'no such endpoint' });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const verification = (d: FakeDocument) => `${base}/verify/${d.id}`;

  return {
    base,
    state,
    documents,
    calls,
    submissions,
    /** The merchant approves in CamInvoice: the address the browser is sent back to. */
    async approve(authorizeUrl: string): Promise<string> {
      const answer = await fetch(authorizeUrl, { redirect: 'manual' });
      return answer.headers.get('location') ?? '';
    },
    setStatus(id: string, status: string, reason: string | null = null) {
      const d = documents.find((x) => x.id === id);
      if (!d) throw new Error(`no document ${id}`);
      d.status = status;
      d.reason = reason;
      d.updated_at = new Date().toISOString();
    },
    /** A supplier's document for the business. */
    receive(xml: string, supplier: FakeDocument['supplier']): FakeDocument {
      const d: FakeDocument = {
        id: randomUUID(),
        number: /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(xml)?.[1] ?? '',
        type: 'INVOICE',
        xml,
        status: 'DELIVERED',
        reason: null,
        direction: 'RECEIVE',
        updated_at: new Date().toISOString(),
        supplier,
      };
      documents.push(d);
      return d;
    },
    /** POST an event to a webhook address, as CamInvoice does. */
    async webhook(url: string, event: Record<string, unknown>) {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
      });
      return { status: answer.status, body: (await answer.json()) as unknown };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeCamInvoice = Awaited<ReturnType<typeof startFakeCamInvoice>>;
