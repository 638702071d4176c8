import {
  type LoginBody,
  loginResponse,
  messageResponse,
  REFRESH_AHEAD_SECONDS,
  refreshResponse,
} from '@depot/contracts';
import { ApiError, api, NetworkError } from './http.ts';
import { clearOfflineReads } from './pwa.ts';
import { session } from './session.ts';

export type LoginResult =
  | { ok: true }
  | { ok: false; status: number; message: string | null; errors: Record<string, string[]> | null };

/** Spec section 4: `status: 'success'` signs in; anything else goes back to the form as it came. */
export async function login(body: LoginBody): Promise<LoginResult> {
  try {
    const answer = await api('login', { method: 'POST', body });
    const parsed = loginResponse.safeParse(answer);
    if (parsed.success) {
      session.signIn(parsed.data);
      return { ok: true };
    }
    const message = (answer as { message?: unknown } | null)?.message;
    return { ok: false, status: 200, message: typeof message === 'string' ? message : null, errors: null };
  } catch (error) {
    if (error instanceof ApiError) {
      return {
        ok: false,
        status: error.status,
        message: error.body?.message ?? null,
        errors: error.body?.errors ?? null,
      };
    }
    return { ok: false, status: 0, message: null, errors: null };
  }
}

/**
 * Spec section 4: an answer with a message clears everything; no message (the server could not be
 * reached) only flags the session signed out, keeping the stored data.
 */
export async function logout(): Promise<void> {
  let message: string | null = null;
  try {
    const answer = messageResponse.safeParse(await api('logout', { method: 'POST', body: {} }));
    if (answer.success) message = answer.data.message;
  } catch {
    // no answer: handled below
  }
  void clearOfflineReads();
  if (message) session.clear();
  else session.markSignedOut();
}

/** Where a refresh ended: a renewed or an ended session, another tab's renewal, or no answer at all. */
export type RefreshOutcome = 'renewed' | 'ended' | 'skipped' | 'unreachable';

const REFRESH_LOCK = 'depot-refresh';

/**
 * One tab at a time: the server takes a refresh token presented twice for a stolen one and revokes
 * the whole sign-in, which would sign every tab out. Without the Web Locks API, jitter alone helps.
 */
function oneTabAtATime<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK, task) : task();
}

/**
 * Exchanges the refresh token. A refusal (a 4xx answer) ends the session, as the spec says; no
 * answer at all, or a server error (5xx) on the way, keeps it, because a cashier's connection drops often and a blip must not sign
 * them out: the caller tries again later.
 */
export async function refresh(): Promise<RefreshOutcome> {
  const seen = session.get();
  return oneTabAtATime(async () => {
    // Another tab may have renewed while this one waited for the lock; its token is the one to keep.
    session.reload();
    const { refreshToken, expiresAt } = session.get();
    if (expiresAt !== seen.expiresAt || refreshToken !== seen.refreshToken) return 'skipped';
    if (!refreshToken) {
      session.end();
      return 'ended';
    }
    try {
      session.renew(
        await api('refresh', { method: 'POST', body: { refresh_token: refreshToken }, schema: refreshResponse }),
      );
      return 'renewed';
    } catch (error) {
      // A proxy's 502/503 while the server restarts is not the server refusing the token.
      if (error instanceof NetworkError || (error instanceof ApiError && error.status >= 500)) return 'unreachable';
      session.end();
      return 'ended';
    }
  });
}

/** After no answer: 5 s, then twice as long each time, at most a minute. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;

let timer: ReturnType<typeof setTimeout> | undefined;
let scheduledFor = 0;
let retryNow: (() => void) | null = null;

/** Refreshes for the session that expires at `expiresAt`; without an answer, tries again until it expires. */
async function attempt(expiresAt: number, backoff: number): Promise<void> {
  retryNow = null;
  if ((await refresh()) !== 'unreachable' || scheduledFor !== expiresAt) return;
  // The last try just before the expiry; after it the guard's rule applies at the next navigation.
  const wait = Math.min(backoff, expiresAt - Date.now() - 1000);
  if (wait <= 0) return;
  const next = () => {
    clearTimeout(timer);
    void attempt(expiresAt, Math.min(backoff * 2, RETRY_MAX_MS));
  };
  timer = setTimeout(next, wait);
  retryNow = next;
}

function schedule(): void {
  const { token, refreshToken, expiresAt, signedOut } = session.get();
  if (!token || !refreshToken || signedOut || !expiresAt) {
    clearTimeout(timer);
    scheduledFor = 0;
    retryNow = null;
    return;
  }
  if (expiresAt === scheduledFor) return;
  clearTimeout(timer);
  retryNow = null;
  scheduledFor = expiresAt;
  // A little jitter so two open tabs rarely even queue for the lock at once.
  const delay = expiresAt - REFRESH_AHEAD_SECONDS * 1000 - Date.now() + Math.random() * 5000;
  timer = setTimeout(
    () => {
      // Another tab may have renewed meanwhile; its new expiry reschedules this one.
      if (session.get().expiresAt === expiresAt) void attempt(expiresAt, RETRY_FIRST_MS);
    },
    Math.max(0, delay),
  );
}

/** Back online: a waiting retry need not sit out its backoff. */
function onOnline(): void {
  retryNow?.();
}

/** Keeps a timer that renews the token REFRESH_AHEAD_SECONDS before it expires. */
export function startRefreshTimer(): () => void {
  schedule();
  const stop = session.subscribe(schedule);
  window.addEventListener('online', onOnline);
  return () => {
    stop();
    window.removeEventListener('online', onOnline);
    clearTimeout(timer);
    scheduledFor = 0;
    retryNow = null;
  };
}
