import {
  isLanding,
  type Landing,
  type LoginResponse,
  type RefreshResponse,
  type StoreCoverage,
  storeCoverage,
} from '@depot/contracts';

/** What the browser keeps after sign-in (spec section 3), one localStorage entry each. */
export interface Session {
  token: string | null;
  refreshToken: string | null;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  userName: string | null;
  userId: number | null;
  store: string | null;
  avatar: string | null;
  permissions: readonly string[];
  roles: readonly string[];
  /**
   * The stores the user covers, as the server says (sign-in, `/api/me`); null: not told (a session
   * from before it said so), every store is offered and the server refuses what is not covered.
   */
  coverage: StoreCoverage | null;
  /** The screen the user starts on, from their roles (contracts screens.ts `landingOf`); null: the default rule. */
  landing: Landing | null;
  /** Logout got no answer: stored data stays, but the session no longer counts (spec section 4). */
  signedOut: boolean;
  /** An administrator reset the password: the user chooses a new one before anything else. */
  mustChangePassword: boolean;
}

export const SESSION_KEYS = {
  token: 'token',
  refreshToken: 'refresh_token',
  expiresAt: 'expires_at',
  userName: 'user_name',
  userId: 'user_id',
  store: 'store',
  avatar: 'avatar',
  permissions: 'permissions',
  roles: 'roles',
  coverage: 'coverage',
  landing: 'landing',
  signedOut: 'signed_out',
  mustChangePassword: 'must_change_password',
} as const satisfies Record<keyof Session, string>;

function list(raw: string | null): string[] {
  try {
    const value: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function coverageOf(raw: string | null): StoreCoverage | null {
  try {
    const parsed = storeCoverage.safeParse(raw ? JSON.parse(raw) : null);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function read(): Session {
  const get = (key: string) => localStorage.getItem(key);
  const userId = Number(get(SESSION_KEYS.userId));
  return {
    token: get(SESSION_KEYS.token),
    refreshToken: get(SESSION_KEYS.refreshToken),
    expiresAt: Number(get(SESSION_KEYS.expiresAt)) || 0,
    userName: get(SESSION_KEYS.userName),
    userId: Number.isInteger(userId) && userId > 0 ? userId : null,
    store: get(SESSION_KEYS.store),
    avatar: get(SESSION_KEYS.avatar),
    permissions: list(get(SESSION_KEYS.permissions)),
    roles: list(get(SESSION_KEYS.roles)),
    coverage: coverageOf(get(SESSION_KEYS.coverage)),
    landing: isLanding(get(SESSION_KEYS.landing)) ? (get(SESSION_KEYS.landing) as Landing) : null,
    signedOut: get(SESSION_KEYS.signedOut) === '1',
    mustChangePassword: get(SESSION_KEYS.mustChangePassword) === '1',
  };
}

let snapshot = read();
const listeners = new Set<() => void>();
let onEnded: () => void = () => {};

function changed(): void {
  snapshot = read();
  for (const listener of listeners) listener();
}

function set(key: string, value: string | null): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

// Another tab signed in, renewed or signed out.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || (Object.values(SESSION_KEYS) as string[]).includes(event.key)) changed();
  });
}

export const session = {
  get: (): Session => snapshot,

  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Spec section 5: a token exists and the stored expiry has not passed. */
  isValid(now = Date.now()): boolean {
    return Boolean(snapshot.token) && !snapshot.signedOut && snapshot.expiresAt > now;
  },

  signIn(answer: LoginResponse, now = Date.now()): void {
    const store = answer.store;
    set(SESSION_KEYS.token, answer.token);
    set(SESSION_KEYS.refreshToken, answer.refresh_token);
    set(SESSION_KEYS.expiresAt, String(now + answer.expires_in * 1000));
    set(SESSION_KEYS.userName, answer.user_info.name);
    set(SESSION_KEYS.userId, String(answer.user_info.id));
    set(SESSION_KEYS.store, store ? store.name : null);
    set(SESSION_KEYS.avatar, answer.user_info.media[0]?.file_path ?? null);
    set(SESSION_KEYS.permissions, JSON.stringify(answer.permissions));
    set(SESSION_KEYS.roles, JSON.stringify(answer.roles));
    set(SESSION_KEYS.coverage, JSON.stringify(answer.coverage));
    set(SESSION_KEYS.landing, answer.landing ?? null);
    set(SESSION_KEYS.signedOut, null);
    set(SESSION_KEYS.mustChangePassword, answer.must_change_password ? '1' : null);
    changed();
  },

  /** What the user may do and where, read again (`/api/me`) after the server said it changed. */
  updateAccess(access: {
    permissions: readonly string[];
    roles: readonly string[];
    coverage: StoreCoverage;
    landing?: Landing | null;
  }): void {
    const { permissions, roles, coverage, landing = null } = access;
    set(SESSION_KEYS.permissions, JSON.stringify(permissions));
    set(SESSION_KEYS.roles, JSON.stringify(roles));
    set(SESSION_KEYS.coverage, JSON.stringify(coverage));
    set(SESSION_KEYS.landing, landing);
    changed();
  },

  /** The user chose their own password. */
  passwordChanged(): void {
    set(SESSION_KEYS.mustChangePassword, null);
    changed();
  },

  /** The server holds this session to choosing a new password (403 `password_change_required`). */
  passwordChangeRequired(): void {
    set(SESSION_KEYS.mustChangePassword, '1');
    changed();
  },

  renew(answer: RefreshResponse, now = Date.now()): void {
    set(SESSION_KEYS.token, answer.token);
    set(SESSION_KEYS.refreshToken, answer.refresh_token);
    set(SESSION_KEYS.expiresAt, String(now + answer.expires_in * 1000));
    changed();
  },

  /** The user's picture changed (their profile): the header's avatar follows. */
  setAvatar(path: string | null): void {
    set(SESSION_KEYS.avatar, path);
    changed();
  },

  clear(): void {
    for (const key of Object.values(SESSION_KEYS)) localStorage.removeItem(key);
    changed();
  },

  markSignedOut(): void {
    set(SESSION_KEYS.signedOut, '1');
    changed();
  },

  /** Where to go when the server ends the session (401, failed refresh); set once by the router. */
  onEnded(handler: () => void): void {
    onEnded = handler;
  },

  /** The server no longer accepts this session: forget it and go to `/` (the guard continues to /login). */
  end(): void {
    session.clear();
    onEnded();
  },

  /** Reads localStorage again: another tab may have written it before its storage event arrives. */
  reload(): void {
    changed();
  },
};
