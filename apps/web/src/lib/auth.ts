import {
  type LoginBody,
  loginResponse,
  messageResponse,
  REFRESH_AHEAD_SECONDS,
  refreshResponse,
} from '@depot/contracts';
import { ApiError, api } from './http.ts';
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
  if (message) session.clear();
  else session.markSignedOut();
}

/** Exchanges the refresh token; a refusal or a failure ends the session. */
export async function refresh(): Promise<void> {
  const { refreshToken } = session.get();
  if (!refreshToken) return session.end();
  try {
    session.renew(
      await api('refresh', { method: 'POST', body: { refresh_token: refreshToken }, schema: refreshResponse }),
    );
  } catch {
    session.end();
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
let scheduledFor = 0;

function schedule(): void {
  const { token, refreshToken, expiresAt, signedOut } = session.get();
  if (!token || !refreshToken || signedOut || !expiresAt) {
    clearTimeout(timer);
    scheduledFor = 0;
    return;
  }
  if (expiresAt === scheduledFor) return;
  clearTimeout(timer);
  scheduledFor = expiresAt;
  // A little jitter so two open tabs rarely spend the same refresh token at once.
  const delay = expiresAt - REFRESH_AHEAD_SECONDS * 1000 - Date.now() + Math.random() * 5000;
  timer = setTimeout(
    () => {
      // Another tab may have renewed meanwhile; its new expiry reschedules this one.
      if (session.get().expiresAt === expiresAt) void refresh();
    },
    Math.max(0, delay),
  );
}

/** Keeps a timer that renews the token REFRESH_AHEAD_SECONDS before it expires. */
export function startRefreshTimer(): () => void {
  schedule();
  const stop = session.subscribe(schedule);
  return () => {
    stop();
    clearTimeout(timer);
    scheduledFor = 0;
  };
}
