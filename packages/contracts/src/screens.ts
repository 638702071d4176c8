import type { Permission } from './permissions.ts';

/**
 * The screens that exist, with the permission each needs and where it sits in the side menu.
 * The web app builds its routes and menu from this list; the server answers 404 for a path that
 * matches none of them. Every path also exists under the `/en` prefix (spec section 2).
 */
export interface Screen {
  path: string;
  layout: 'dashboard' | 'guest' | 'default';
  /** Absent: any signed-in user (or anyone, on the guest layout). */
  permission?: Permission;
  /** Shown in the side menu under this i18n key. */
  menu?: string;
}

export const SCREENS: readonly Screen[] = [
  { path: '/', layout: 'dashboard' },
  { path: '/app', layout: 'dashboard' },
  { path: '/login', layout: 'guest' },
  { path: '/dashboards', layout: 'dashboard', permission: 'dashboards.view', menu: 'menu.dashboard' },
  { path: '/no-permission', layout: 'default' },
  { path: '/not-found', layout: 'default' },
];

/** `/en/products` → `/products`; any other path unchanged. */
export function stripLocalePrefix(path: string): string {
  if (path === '/en') return '/';
  return path.startsWith('/en/') ? path.slice(3) : path;
}

function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.replace(/\/+$/, '').split('/');
  if (pattern === '/') return path === '/' || path === '';
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i]);
}

export function findScreen(path: string): Screen | undefined {
  const bare = stripLocalePrefix(path);
  return SCREENS.find((s) => matches(s.path, bare));
}
