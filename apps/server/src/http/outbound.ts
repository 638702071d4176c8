/**
 * The one client for the services Depot calls across the internet (Bakong, the National
 * Bank's rate feed, CamInvoice): HTTP to a base URL from configuration, JSON (or a feed's text),
 * with a time limit and no redirects. A test points the base URL at a local
 * fake server; nothing here knows which service it is talking to.
 *
 * It answers every reply that carries JSON, whatever its status (a service's refusal is read by
 * the service's client), and throws `OutboundUnreachable` when there is no usable reply: no
 * connection, no answer in time, or a body that is not JSON (a proxy's or a firewall's page).
 */

export interface OutboundConfig {
  /** The service's base: `https://api-bakong.nbc.gov.kh`, a relay's address, or a test's fake. */
  baseUrl: string;
  /** How long to wait for an answer. */
  timeoutMs: number;
  /** Headers of every call (an API's bearer token). */
  headers?: Record<string, string>;
}

export interface OutboundReply {
  status: number;
  /** The parsed JSON body. */
  body: unknown;
}

/** Why a call got no usable reply: no connection or no answer in time, or not JSON (with its status). */
export class OutboundUnreachable extends Error {
  constructor(
    message: string,
    /** The HTTP status when there was a reply (a page that is not JSON), else null. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'OutboundUnreachable';
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** `json` (default): the reply must be JSON; `text`: the body as it came (a feed's XML). */
  as?: 'json' | 'text';
}

export function outboundClient(config: OutboundConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');

  /** Calls `path` (under the base URL) and answers the reply, whatever its status. */
  async function request(path: string, options: OutboundRequest = {}): Promise<OutboundReply> {
    const { method = 'GET', body, headers = {}, as = 'json' } = options;
    const url = `${base}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          accept: as === 'json' ? 'application/json' : '*/*',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...config.headers,
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (error) {
      throw new OutboundUnreachable(`${url}: ${(error as Error).message}`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new OutboundUnreachable(`${url}: ${(error as Error).message}`, response.status);
    }
    if (as === 'text') return { status: response.status, body: text };
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new OutboundUnreachable(`${url}: HTTP ${response.status}, not JSON`, response.status);
    }
  }

  return {
    request,
    /** POSTs `body` as JSON to `path` (under the base URL) and answers the JSON reply. */
    postJson: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request(path, { method: 'POST', body, headers }),
  };
}

export type OutboundClient = ReturnType<typeof outboundClient>;
