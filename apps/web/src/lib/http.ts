import type { Locale } from '@depot/contracts';
import type { z } from 'zod';
import { session } from './session.ts';

/** The body of a failed answer: `{message}`, plus `errors` on 422 and `request_id` on 500. */
export interface ErrorBody {
  status?: string;
  message?: string;
  errors?: Record<string, string[]>;
  request_id?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;

  constructor(status: number, body: ErrorBody | null) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** No HTTP answer at all: the request failed on the way (offline, dropped connection, DNS). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached', { cause });
    this.name = 'NetworkError';
  }
}

let locale: Locale = 'kh';

/** Kept in step with the path by the router, so the server answers in the page's language. */
export function setRequestLocale(next: Locale): void {
  locale = next;
}

// Their 401 means "wrong credentials" or "refresh token spent", which the callers handle.
const OWN_401 = new Set(['login', 'refresh']);

function apiBase(): string {
  const base = window.__DEPOT__?.apiBase ?? '/api/';
  return base.endsWith('/') ? base : `${base}/`;
}

interface RequestOptions<S extends z.ZodType | undefined> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Checks the answer's shape, so a changed server fails loudly here rather than deep in a page. */
  schema?: S;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The one HTTP client: JSON both ways, the bearer token, the page's language. */
export async function api<S extends z.ZodType | undefined = undefined>(
  path: string,
  { method = 'GET', body, signal, schema }: RequestOptions<S> = {},
): Promise<S extends z.ZodType ? z.output<S> : unknown> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Localization': locale,
  };
  const { token } = session.get();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  let text: string;
  try {
    response = await fetch(apiBase() + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    // The body can still be cut off after the status line arrived.
    text = await response.text();
  } catch (error) {
    // A cancelled request stays what it is, so callers that cancel can tell.
    throw signal?.aborted ? error : new NetworkError(error);
  }
  const data = parseJson(text);

  if (!response.ok) {
    if (response.status === 401 && !OWN_401.has(path)) session.end();
    throw new ApiError(response.status, data && typeof data === 'object' ? (data as ErrorBody) : null);
  }
  return (schema ? schema.parse(data) : data) as S extends z.ZodType ? z.output<S> : unknown;
}
