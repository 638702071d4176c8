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

  const response = await fetch(apiBase() + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const data: unknown = await response.json().catch(() => null);

  if (!response.ok) {
    if (response.status === 401 && !OWN_401.has(path)) session.end();
    throw new ApiError(response.status, data && typeof data === 'object' ? (data as ErrorBody) : null);
  }
  return (schema ? schema.parse(data) : data) as S extends z.ZodType ? z.output<S> : unknown;
}
