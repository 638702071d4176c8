import { OutboundUnreachable, outboundClient } from '../../http/outbound.ts';

/**
 * CamInvoice's merchant API (GDT, https://github.com/mef-gdde/e-invoice-integration and its Postman
 * collection), called with the software provider's client id and secret (HTTP Basic) for the
 * connection and token, and with the merchant's bearer access token for everything else:
 *
 *   GET  {base}/connect?client_id&redirect_url&state   the merchant signs in and approves (browser)
 *   POST {base}/api/v1/auth/authorize/connect {auth_token}   → business_info, refresh_token
 *   POST {base}/api/v1/auth/token {refresh_token}            → access_token, expire_at | expires_in
 *   POST {base}/api/v1/document {documents: [{document_type, document: base64 UBL}]}
 *                                                            → valid_documents, failed_documents
 *   GET  {base}/api/v1/document/{id}                         → status, verification_link, …
 *   GET  {base}/api/v1/document?type=sent&keyword={number}   → a submission found again
 *   POST {base}/api/v1/document/send {documents: [id]}       → delivered to a buyer on CamInvoice
 *   GET  {base}/api/v1/document/poll?last_synced_at=         → [{document_id, updated_at, type}]
 *   GET  {base}/api/v1/document/{id}/xml                     → a received document's UBL
 *   GET  {base}/api/v1/business?keyword={tin}&limit=10        → businesses on CamInvoice
 *
 * Where the public sources are silent (the `state` round trip, the search of sent documents, the
 * shape of business search answers) docs/OPERATIONS.md says what was chosen.
 */

export interface CamInvoiceConfig {
  clientId: string;
  clientSecret: string;
  /** `https://sandbox.e-invoice.gov.kh` or production's. */
  baseUrl: string;
  timeoutMs?: number;
}

/** CamInvoice did not answer, or answered 5xx: try again later. */
export class CamInvoiceUnreachable extends Error {}

/** CamInvoice refused (4xx): `status` 401/403 on tokens means the grant is gone. */
export class CamInvoiceRefused extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`CamInvoice answered ${status}: ${detail}`);
  }
}

export interface BusinessInfo {
  endpoint_id: string;
  tin?: string | null;
  company_name_en?: string | null;
  company_name_kh?: string | null;
  address?: string | null;
  city?: string | null;
}

export interface Tokens {
  access_token: string | null;
  /** ISO time the access token stops working. */
  expires_at: string | null;
  refresh_token: string | null;
}

export interface Submitted {
  valid: { document_id: string; verification_link: string | null; document_number: string | null }[];
  failed: { document_number: string | null; message: string }[];
}

export interface PlatformDocument {
  document_id: string;
  document_number: string | null;
  status: string;
  verification_link: string | null;
  reason: string | null;
  document_type: string | null;
  issue_date: string | null;
  supplier_name: string | null;
  supplier_vattin: string | null;
  supplier_id: string | null;
  tax_inclusive_amount: number | null;
}

type Json = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function tokensOf(body: Json): Tokens {
  const expiresIn = Number(body.expires_in);
  const expiresAt = text(body.expire_at) ?? text(body.expires_at);
  return {
    access_token: text(body.access_token),
    expires_at: expiresAt
      ? new Date(expiresAt).toISOString()
      : Number.isFinite(expiresIn) && expiresIn > 0
        ? new Date(Date.now() + expiresIn * 1000).toISOString()
        : null,
    refresh_token: text(body.refresh_token),
  };
}

function documentOf(body: Json): PlatformDocument {
  return {
    document_id: String(body.document_id ?? body.id ?? ''),
    document_number: text(body.document_number),
    status: String(body.status ?? '').toUpperCase(),
    verification_link: text(body.verification_link) ?? text(body.verification_url),
    reason: text(body.reason) ?? text(body.rejection_reason) ?? text(body.remark),
    document_type: text(body.document_type),
    issue_date: text(body.issue_date),
    supplier_name: text(body.supplier_company_name_kh) ?? text(body.supplier_company_name_en),
    supplier_vattin: text(body.supplier_vattin),
    supplier_id: text(body.supplier_id),
    tax_inclusive_amount: typeof body.tax_inclusive_amount === 'number' ? body.tax_inclusive_amount : null,
  };
}

export function camInvoiceClient(config: CamInvoiceConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');
  const basic = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;
  const http = outboundClient({ baseUrl: base, timeoutMs: config.timeoutMs ?? 15_000 });

  /**
   * One call through the outbound client. The body is read as text, whatever its status: a 4xx
   * is CamInvoice's refusal (its message, or the page's first words), no answer or a 5xx is
   * "unreachable" (try again later), and a success that is not JSON is unreachable too.
   */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    auth: string,
    body?: unknown,
    as: 'json' | 'text' = 'json',
  ): Promise<unknown> {
    let reply: Awaited<ReturnType<typeof http.request>>;
    try {
      reply = await http.request(path, {
        method,
        body,
        headers: { authorization: auth, accept: as === 'json' ? 'application/json' : '*/*' },
        as: 'text',
      });
    } catch (error) {
      if (error instanceof OutboundUnreachable) throw new CamInvoiceUnreachable(error.message);
      throw error;
    }
    const raw = String(reply.body);
    if (reply.status >= 500) throw new CamInvoiceUnreachable(`HTTP ${reply.status}`);
    if (reply.status >= 300) {
      let detail = raw.slice(0, 300);
      try {
        const parsed = JSON.parse(raw) as Json;
        detail = String(parsed.message ?? parsed.error_description ?? parsed.error ?? detail).slice(0, 300);
      } catch {}
      throw new CamInvoiceRefused(reply.status, detail);
    }
    if (as === 'text') return raw;
    try {
      return JSON.parse(raw);
    } catch {
      throw new CamInvoiceUnreachable('not JSON');
    }
  }
  const bearer = (token: string) => `Bearer ${token}`;

  return {
    baseUrl: base,

    /** Where the merchant's browser goes to approve Depot (CamInvoice sends it back with `authToken`). */
    authorizeUrl(redirectUrl: string, state: string): string {
      const url = new URL(`${base}/connect`);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_url', redirectUrl);
      url.searchParams.set('state', state);
      return url.toString();
    },

    async connect(authToken: string): Promise<{ business: BusinessInfo; tokens: Tokens }> {
      const body = (await call('POST', '/api/v1/auth/authorize/connect', basic, { auth_token: authToken })) as Json;
      const info = (body.business_info ?? {}) as Json;
      const endpoint = text(info.endpoint_id) ?? text(info.moc_id);
      const tokens = tokensOf(body);
      if (!endpoint || !tokens.refresh_token)
        throw new CamInvoiceUnreachable('connect answer without business or token');
      return {
        business: {
          endpoint_id: endpoint,
          tin: text(info.tin),
          company_name_en: text(info.company_name_en),
          company_name_kh: text(info.company_name_kh),
        },
        tokens,
      };
    },

    async refresh(refreshToken: string): Promise<Tokens> {
      const tokens = tokensOf(
        (await call('POST', '/api/v1/auth/token', basic, { refresh_token: refreshToken })) as Json,
      );
      if (!tokens.access_token) throw new CamInvoiceUnreachable('token answer without access_token');
      return tokens;
    },

    async submit(token: string, documentType: string, xml: string): Promise<Submitted> {
      const body = (await call('POST', '/api/v1/document', bearer(token), {
        documents: [{ document_type: documentType, document: Buffer.from(xml, 'utf8').toString('base64') }],
      })) as Json;
      const valid = Array.isArray(body.valid_documents) ? (body.valid_documents as Json[]) : [];
      const failed = Array.isArray(body.failed_documents) ? (body.failed_documents as Json[]) : [];
      return {
        valid: valid.map((d) => ({
          document_id: String(d.document_id),
          verification_link: text(d.verification_link),
          document_number: text(d.document_number),
        })),
        failed: failed.map((d) => ({
          document_number: text(d.document_number),
          message: String(d.message ?? d.error ?? 'refused').slice(0, 1000),
        })),
      };
    },

    async document(token: string, id: string): Promise<PlatformDocument> {
      return documentOf((await call('GET', `/api/v1/document/${encodeURIComponent(id)}`, bearer(token))) as Json);
    },

    /** A sent document found by its number (a submission whose answer was lost). */
    async findSent(token: string, number: string): Promise<PlatformDocument | null> {
      const query = new URLSearchParams({ type: 'sent', keyword: number });
      const body = (await call('GET', `/api/v1/document?${query}`, bearer(token))) as Json;
      const rows = (Array.isArray(body) ? body : Array.isArray(body.data) ? body.data : []) as Json[];
      const found = rows.map(documentOf).find((d) => d.document_number === number);
      return found ?? null;
    },

    async send(token: string, ids: string[]): Promise<void> {
      await call('POST', '/api/v1/document/send', bearer(token), { documents: ids });
    },

    async poll(
      token: string,
      since: string | null,
    ): Promise<{ document_id: string; type: string; updated_at: string }[]> {
      const query = since ? `?${new URLSearchParams({ last_synced_at: since })}` : '';
      const body = (await call('GET', `/api/v1/document/poll${query}`, bearer(token))) as Json;
      const rows = (Array.isArray(body.documents) ? body.documents : []) as Json[];
      return rows.map((r) => ({
        document_id: String(r.document_id),
        type: String(r.type ?? ''),
        updated_at: String(r.updated_at ?? ''),
      }));
    },

    async xml(token: string, id: string): Promise<string> {
      return (await call(
        'GET',
        `/api/v1/document/${encodeURIComponent(id)}/xml`,
        bearer(token),
        undefined,
        'text',
      )) as string;
    },

    async businesses(token: string, keyword: string): Promise<BusinessInfo[]> {
      const query = new URLSearchParams({ keyword, limit: '10' });
      const body = (await call('GET', `/api/v1/business?${query}`, bearer(token))) as Json;
      const rows = (Array.isArray(body) ? body : Array.isArray(body.data) ? body.data : []) as Json[];
      return rows
        .map((r) => ({
          endpoint_id: String(r.endpoint_id ?? ''),
          tin: text(r.tin),
          company_name_en: text(r.company_name_en),
          company_name_kh: text(r.company_name_kh),
          address: text(r.address),
          city: text(r.city),
        }))
        .filter((r) => r.endpoint_id);
    },
  };
}

export type CamInvoiceClient = ReturnType<typeof camInvoiceClient>;
