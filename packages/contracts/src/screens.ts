import type { Permission } from './permissions.ts';

/**
 * The screens that exist, with the permission each needs and where it sits in the side menu.
 * The web app builds its routes and menu from this list; the server answers 404 for a path that
 * matches none of them. Every path also exists under the `/en` prefix (spec section 2).
 */
export interface Screen {
  path: string;
  /** `bare`: a page alone, no menu, no session needed (the customer display, which shows only what it is sent). */
  layout: 'dashboard' | 'guest' | 'default' | 'bare';
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
  // selling: the till, orders (the till's review and payment at /orders/review), invoices,
  // discounts and combos (a review of a combo's money before saving)
  { path: '/pos', layout: 'dashboard', permission: 'orders.create', menu: 'menu.pos' },
  { path: '/orders', layout: 'dashboard', permission: 'orders.list', menu: 'menu.orders', group: 'menu.group.sales' },
  { path: '/orders/review', layout: 'dashboard', permission: 'orders.create' },
  // serial and IMEI numbers (issue 28): who bought a unit, when, with what warranty
  { path: '/serials', layout: 'dashboard', permission: 'orders.list', menu: 'menu.serials', group: 'menu.group.sales' },
  {
    path: '/invoices',
    layout: 'dashboard',
    permission: 'invoices.list',
    menu: 'menu.invoices',
    group: 'menu.group.sales',
  },
  // tax documents (issue 27): tax and commercial invoices, credit and debit notes
  {
    path: '/tax-documents',
    layout: 'dashboard',
    permission: 'tax_documents.list',
    menu: 'menu.tax_documents',
    group: 'menu.group.sales',
  },
  ...crud('/discounts', 'discounts', 'menu.group.sales'),
  ...crud('/combos', 'combos', 'menu.group.sales'),
  { path: '/combos/review', layout: 'dashboard', permission: 'combos.create' },
  // not in the spec's list: where the exchange rate and the sale settings are set (spec: a riel
  // rate with a last-updated time; the issue asks for an admin screen)
  {
    path: '/exchange-rates',
    layout: 'dashboard',
    permission: 'exchange_rates.view',
    menu: 'menu.exchange_rates',
    group: 'menu.group.sales',
  },
  // cash drawer shifts: open at a till, pay in and out, close with a count; X and Z reports
  { path: '/shifts', layout: 'dashboard', permission: 'shifts.list', menu: 'menu.shifts', group: 'menu.group.sales' },
  // purchases: list, create, review (a summary before confirming) and update
  {
    path: '/purchases',
    layout: 'dashboard',
    permission: 'purchases.list',
    menu: 'menu.purchases',
    group: 'menu.group.inventory',
  },
  { path: '/purchases/create', layout: 'dashboard', permission: 'purchases.create' },
  { path: '/purchases/review', layout: 'dashboard', permission: 'purchases.create' },
  { path: '/purchases/update/:id', layout: 'dashboard', permission: 'purchases.update' },
  // suppliers' e-invoices received through CamInvoice, each made a draft purchase by a person
  {
    path: '/einvoices/received',
    layout: 'dashboard',
    permission: 'purchases.list',
    menu: 'menu.received_einvoices',
    group: 'menu.group.inventory',
  },
  {
    path: '/stocks/manage',
    layout: 'dashboard',
    permission: 'stocks.list',
    menu: 'menu.stock_manage',
    group: 'menu.group.inventory',
  },
  {
    path: '/stocks/transfer',
    layout: 'dashboard',
    permission: 'stocks.list',
    menu: 'menu.stock_transfer',
    group: 'menu.group.inventory',
  },
  {
    path: '/stocks/low',
    layout: 'dashboard',
    permission: 'stocks.list',
    menu: 'menu.stock_low',
    group: 'menu.group.inventory',
  },
  // stock counts (issue 28): the list, and one count: scanning on a phone, or a manager's review
  {
    path: '/stocks/counts',
    layout: 'dashboard',
    permission: 'stock_counts.list',
    menu: 'menu.stock_counts',
    group: 'menu.group.inventory',
  },
  { path: '/stocks/counts/:id', layout: 'dashboard', permission: 'stock_counts.view' },
  // expired batches and their write-off: stock, though the spec files the route under products
  {
    path: '/products/expired',
    layout: 'dashboard',
    permission: 'stocks.list',
    menu: 'menu.expired_products',
    group: 'menu.group.inventory',
  },
  ...crud('/products', 'products', 'menu.group.catalogue'),
  ...crud('/brands', 'brands', 'menu.group.catalogue'),
  ...crud('/categories', 'categories', 'menu.group.catalogue'),
  ...crud('/subCategories', 'sub_categories', 'menu.group.catalogue'),
  ...crud('/units', 'units', 'menu.group.catalogue'),
  // The spec lists /customers and /customers/create (and the same for suppliers); staff also need
  // to correct a phone number, so both have an update screen as well.
  ...crud('/customers', 'customers', 'menu.group.partners'),
  // wholesale: customer groups and their price lists
  ...crud('/customer-groups', 'customer_groups', 'menu.group.partners'),
  ...crud('/price-lists', 'price_lists', 'menu.group.catalogue'),
  ...crud('/suppliers', 'suppliers', 'menu.group.partners'),
  ...crud('/stores', 'stores', 'menu.group.partners'),
  ...crud('/provinces', 'provinces', 'menu.group.gazetteer'),
  ...crud('/districts', 'districts', 'menu.group.gazetteer'),
  ...crud('/communes', 'communes', 'menu.group.gazetteer'),
  ...crud('/villages', 'villages', 'menu.group.gazetteer'),
  // the inbox (spec section 1: notifications with archive and unread / read filters); the header's
  // bell opens it, so it has no menu entry
  { path: '/notifications', layout: 'dashboard', permission: 'notifications.list' },
  // administration: staff, roles and their permissions, coverage, the audit trail
  ...crud('/users', 'users', 'menu.group.admin'),
  { path: '/users/coverage/:id', layout: 'dashboard', permission: 'coverage.assign' },
  { path: '/roles', layout: 'dashboard', permission: 'roles.list', menu: 'menu.roles', group: 'menu.group.admin' },
  { path: '/audit', layout: 'dashboard', permission: 'audit.list', menu: 'menu.audit', group: 'menu.group.admin' },
  // a new password after an administrator's reset (any signed-in user)
  { path: '/password', layout: 'dashboard' },
  // sample data to try Depot with, loaded and removed by an administrator (spec section 2: /samples)
  {
    path: '/samples',
    layout: 'dashboard',
    permission: 'samples.view',
    menu: 'menu.samples',
    group: 'menu.group.admin',
  },
  // reports: each reads its figures from the server, scoped to the user's stores
  ...(['sales', 'financial', 'inventory', 'customer'] as const).map(
    (name): Screen => ({
      path: `/reports/${name}`,
      layout: 'dashboard',
      permission: 'reports.view',
      menu: `menu.report_${name}`,
      group: 'menu.group.reports',
    }),
  ),
  {
    path: '/reports/shifts',
    layout: 'dashboard',
    permission: 'reports.view',
    menu: 'menu.report_shifts',
    group: 'menu.group.reports',
  },
  // receivables and payables with ageing, for who sees credit: never a cashier
  {
    path: '/reports/credit',
    layout: 'dashboard',
    permission: 'credit.view',
    menu: 'menu.report_credit',
    group: 'menu.group.reports',
  },
  // the signed-in user's own profile (spec: /profiles); the header's user menu opens it
  { path: '/profiles', layout: 'dashboard', permission: 'profiles.view' },
  // not in the spec's list: the system settings (spec section 1), for administrators
  {
    path: '/settings',
    layout: 'dashboard',
    permission: 'settings.update',
    menu: 'menu.settings',
    group: 'menu.group.admin',
  },
  // the business's connection to CamInvoice (GDT e-invoicing), for administrators
  {
    path: '/settings/caminvoice',
    layout: 'dashboard',
    permission: 'settings.update',
    menu: 'menu.caminvoice',
    group: 'menu.group.admin',
  },
  // the screen facing the customer: the till's second window, or a paired tablet
  { path: '/display', layout: 'bare' },
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

/**
 * The screens a role may start on (roles.landing, chosen in the role editor), each with the
 * permission it needs: the server refuses a landing its role cannot open. A user lands on the
 * landing of the first of their roles (by name, as the session lists them) whose screen they may
 * open; none set: a cashier (may sell, may not read reports) on the till, everyone else on the
 * dashboard (the web's `landingPath`).
 */
export const LANDINGS = {
  dashboard: { path: '/dashboards', permission: 'dashboards.view' },
  pos: { path: '/pos', permission: 'orders.create' },
  orders: { path: '/orders', permission: 'orders.list' },
  stock: { path: '/stocks/manage', permission: 'stocks.list' },
  purchases: { path: '/purchases', permission: 'purchases.list' },
  reports: { path: '/reports/sales', permission: 'reports.view' },
} as const satisfies Record<string, { path: string; permission: Permission }>;
export type Landing = keyof typeof LANDINGS;
export const LANDING_KEYS = Object.keys(LANDINGS) as [Landing, ...Landing[]];

export function isLanding(value: unknown): value is Landing {
  return typeof value === 'string' && Object.hasOwn(LANDINGS, value);
}

/** The landing of the first role (in the order given) whose screen these permissions open; null: none. */
export function landingOf(
  roles: readonly { landing: string | null }[],
  permissions: { has(permission: string): boolean },
): Landing | null {
  for (const { landing } of roles)
    if (isLanding(landing) && permissions.has(LANDINGS[landing].permission)) return landing;
  return null;
}
