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
  /** The side-menu group it sits in (an i18n key); absent, it stands at the top level. */
  group?: string;
}

/** A list screen with its create and update screens (spec: `/x`, `/x/create`, `/x/update/{id}`). */
function crud(path: string, resource: string, group: string): Screen[] {
  return [
    { path, layout: 'dashboard', permission: `${resource}.list` as Permission, menu: `menu.${resource}`, group },
    { path: `${path}/create`, layout: 'dashboard', permission: `${resource}.create` as Permission },
    { path: `${path}/update/:id`, layout: 'dashboard', permission: `${resource}.update` as Permission },
  ];
}

export const SCREENS: readonly Screen[] = [
  { path: '/', layout: 'dashboard' },
  { path: '/app', layout: 'dashboard' },
  { path: '/login', layout: 'guest' },
  { path: '/dashboards', layout: 'dashboard', permission: 'dashboards.view', menu: 'menu.dashboard' },
  ...crud('/brands', 'brands', 'menu.group.catalogue'),
  ...crud('/categories', 'categories', 'menu.group.catalogue'),
  ...crud('/subCategories', 'sub_categories', 'menu.group.catalogue'),
  ...crud('/units', 'units', 'menu.group.catalogue'),
  // The spec lists /customers and /customers/create (and the same for suppliers); staff also need
  // to correct a phone number, so both have an update screen as well.
  ...crud('/customers', 'customers', 'menu.group.partners'),
  ...crud('/suppliers', 'suppliers', 'menu.group.partners'),
  ...crud('/stores', 'stores', 'menu.group.partners'),
  ...crud('/provinces', 'provinces', 'menu.group.gazetteer'),
  ...crud('/districts', 'districts', 'menu.group.gazetteer'),
  ...crud('/communes', 'communes', 'menu.group.gazetteer'),
  ...crud('/villages', 'villages', 'menu.group.gazetteer'),
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
