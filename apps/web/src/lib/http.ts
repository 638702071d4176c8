import type { Locale } from '@depot/contracts';
import type { z } from 'zod';
import { noteReached, onReachability, PROBE_MS, serverReached } from './reachability.ts';
import { session } from './session.ts';

/** The body of a failed answer: `{message}`, plus `errors` on 422 and `request_id` on 500. */
export interface ErrorBody {
  status?: string;
  /** A machine-readable reason, where the server gives one (`approval_required`, `idempotency_mismatch`). */
  code?: string;
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
  /**
   * For a POST that moves stock or money (DESIGN.md section 3): the same key on a retry of the same
   * action gets the first answer again rather than doing the work twice.
   */
  idempotencyKey?: string;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** What every request carries: JSON accepted, the bearer token, the page's language. */
function baseHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Localization': locale };
  const { token } = session.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** A refusal as an ApiError; a 401 on anything but sign-in and refresh ends the session. */
function failure(path: string, status: number, text: string): ApiError {
  if (status === 401 && !OWN_401.has(path)) session.end();
  const data = parseJson(text);
  // a temporary password (an administrator's reset): the guard sends the user to /password
  if (status === 403 && (data as ErrorBody | null)?.code === 'password_change_required')
    session.passwordChangeRequired();
  return new ApiError(status, data && typeof data === 'object' ? (data as ErrorBody) : null);
}

/** The one HTTP client: JSON both ways, the bearer token, the page's language. */
export async function api<S extends z.ZodType | undefined = undefined>(
  path: string,
  { method = 'GET', body, signal, schema, idempotencyKey }: RequestOptions<S> = {},
): Promise<S extends z.ZodType ? z.output<S> : unknown> {
  const headers: Record<string, string> = { ...baseHeaders(), 'Content-Type': 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;

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
    unreached(error, signal);
  }
  // a read may be answered by the service worker from what it kept; a write's answer is the server's
  if (method !== 'GET') noteReached(true);
  if (!response.ok) throw failure(path, response.status, text);
  const data = parseJson(text);
  return (schema ? schema.parse(data) : data) as S extends z.ZodType ? z.output<S> : unknown;
}

/** A request that got no answer: the server is noted unreachable and asked after until it answers. */
function unreached(error: unknown, signal: AbortSignal | undefined): never {
  // A cancelled request stays what it is, so callers that cancel can tell.
  if (signal?.aborted) throw error;
  noteReached(false);
  askUntilReached();
  throw new NetworkError(error);
}

/**
 * A large read answered as bytes, not parsed here (the till's catalogue snapshot: a worker parses
 * it, localSeed.ts): the same headers, refusals and network failures as `api`.
 */
export async function apiBytes(path: string, { signal }: { signal?: AbortSignal } = {}): Promise<ArrayBuffer> {
  let response: Response;
  let bytes: ArrayBuffer;
  try {
    response = await fetch(apiBase() + path, { headers: baseHeaders(), signal });
    bytes = await response.arrayBuffer();
  } catch (error) {
    unreached(error, signal);
  }
  if (!response.ok) throw failure(path, response.status, new TextDecoder().decode(bytes));
  return bytes;
}

/** The health checks under way while the server is not reached: the next one's timer. */
let probe: { timer: ReturnType<typeof setTimeout> } | undefined;
/** Requests that got no answer so far: a health answer counts only if none failed while it was asked. */
let unanswered = 0;

/**
 * The server went unreached: `/api/health` is asked every PROBE_MS until it answers, so the till's
 * "Online" comes back by itself. Without this only a later write marked it reached again, and a
 * tab that made none (another tab sent the queue) said "Offline" for good. With no-store, and the
 * service worker keeps no answer of it (vite.config.ts): only the server answers. The checks stop
 * when the server is reached by any means (a write's answer, the browser's `online`). A plain
 * `fetch`, not `api`: a check that gets no answer must not count as another unanswered request.
 */
function askUntilReached(): void {
  unanswered += 1;
  if (probe) return;
  const current = { timer: setTimeout(() => void ask(current), PROBE_MS) };
  probe = current;
}

async function ask(current: NonNullable<typeof probe>): Promise<void> {
  const before = unanswered;
  if (navigator.onLine !== false) {
    try {
      const response = await fetch(`${apiBase()}health`, {
        cache: 'no-store',
        signal: AbortSignal.timeout(PROBE_MS),
      });
      // a proxy's 502 is not the server; a request that failed meanwhile is newer news
      if (response.ok && unanswered === before) noteReached(true);
    } catch {
      // still no answer
    }
  }
  // stopped (reached meanwhile), or another round began: this one ends
  if (probe !== current) return;
  if (serverReached()) probe = undefined;
  else current.timer = setTimeout(() => void ask(current), PROBE_MS);
}

onReachability(() => {
  if (!serverReached() || !probe) return;
  clearTimeout(probe.timer);
  probe = undefined;
});

/**
 * Whether a failure leaves the write's outcome unknown, so the same key must go again: no answer, or
 * a server error (the server claims the key with the write, so the retry either answers the write
 * made or makes it). Any other answer is final: a refusal made nothing, and the next attempt,
 * changed by the cashier, takes a new key.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (!(error instanceof ApiError)) return false;
  return error.status >= 500;
}

/** A fresh key for one action of the user's (a dialog's Confirm and its retries share it). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** The file name a download's `Content-Disposition` gives, or the fallback. */
function fileName(disposition: string | null, fallback: string): string {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return match ? decodeURIComponent(match[1]) : fallback;
}

/**
 * A file the server makes (an export; labels from a POSTed list): fetched with the session's token,
 * then saved by the browser.
 */
export async function download(path: string, fallbackName: string, post?: { body: unknown }): Promise<void> {
  let response: Response;
  let blob: Blob;
  try {
    response = await fetch(
      apiBase() + path,
      post
        ? {
            method: 'POST',
            headers: { ...baseHeaders(), 'Content-Type': 'application/json' },
            body: JSON.stringify(post.body),
          }
        : { headers: baseHeaders() },
    );
    blob = await response.blob();
  } catch (error) {
    throw new NetworkError(error);
  }
  if (!response.ok) throw failure(path, response.status, await blob.text());
  saveFile(blob, fileName(response.headers.get('content-disposition'), fallbackName));
}

/** Hands a file made in the page (or fetched) to the browser's downloads. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Sends a file as multipart form data, reporting how much has gone (0 to 1). XMLHttpRequest,
 * because fetch cannot tell upload progress; the headers and errors are the same as `api`'s.
 */
export function upload<S extends z.ZodType>(
  path: string,
  form: FormData,
  { schema, onProgress, method = 'POST' }: { schema: S; onProgress?: (sent: number) => void; method?: 'POST' },
): Promise<z.output<S>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, apiBase() + path);
    for (const [name, value] of Object.entries(baseHeaders())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    request.onerror = () => reject(new NetworkError(new Error('upload failed')));
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) {
        reject(failure(path, request.status, request.responseText));
        return;
      }
      try {
        resolve(schema.parse(parseJson(request.responseText)));
      } catch (error) {
        reject(error);
      }
    };
    request.send(form);
  });
}
