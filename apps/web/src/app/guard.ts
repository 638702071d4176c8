import type { Screen } from '@depot/contracts';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { can } from '../lib/access.tsx';
import { localeFromPath, localePath } from '../lib/locale.ts';
import { session } from '../lib/session.ts';

/**
 * Spec section 5, run before a screen renders: an invalid session (no token, expired, or flagged
 * signed out) is cleared and sent to /login; a valid one never sees /login; a screen's permission
 * must be in the stored list, else /no-permission. The error pages (default layout) need no session.
 */
export function guard(screen: Screen, redirectTo?: string | (() => string)) {
  return ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const locale = localeFromPath(url.pathname);
    const go = (path: string, search = '') => redirect(localePath(path, locale) + search);

    if (screen.layout === 'default' || screen.layout === 'bare') return null;
    if (screen.layout === 'guest') {
      if (session.isValid()) throw go('/');
      return null;
    }
    if (!session.isValid()) {
      session.clear();
      throw go('/login');
    }
    // after an administrator's reset: a new password before any other screen
    if (session.get().mustChangePassword && screen.path !== '/password') throw go('/password');
    if (!can(screen.permission)) throw go('/no-permission');
    if (redirectTo) throw go(typeof redirectTo === 'function' ? redirectTo() : redirectTo, url.search);
    return null;
  };
}
