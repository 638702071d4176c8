/**
 * The permission vocabulary (spec section 6, DESIGN.md section 4).
 * Permissions are `resource.action` strings generated from this table, never typed out by hand.
 */
export const ACTIONS = [
  'list',
  'view',
  'create',
  'update',
  'edit',
  'delete',
  'restore',
  'approve',
  'generate',
  'cancel',
  'assign',
] as const;
export type Action = (typeof ACTIONS)[number];

const CRUD = ['list', 'view', 'create', 'update', 'delete', 'restore'] as const satisfies readonly Action[];

export const RESOURCES = {
  dashboards: ['view'],
  users: [...CRUD, 'assign'],
  roles: [...CRUD, 'assign'],
  permissions: ['list', 'view'],
  coverage: ['view', 'assign'],
  /** The audit trail: read only, through the app nobody edits or deletes it. */
  audit: ['list', 'view'],
  settings: ['view', 'update'],
  exchange_rates: ['view', 'update'],
  notifications: ['list', 'view', 'update', 'delete'],
  profiles: ['view', 'update'],
  brands: CRUD,
  categories: CRUD,
  sub_categories: CRUD,
  units: CRUD,
  /** `generate`: print barcode labels and shelf tags (a product without a barcode gets one: products.update too). */
  products: [...CRUD, 'generate'],
  stores: CRUD,
  customers: CRUD,
  /** Customer groups (retail, wholesale, a shop chain): each has its own price list. */
  customer_groups: CRUD,
  /** Price lists' rows: a unit's price and quantity breaks; writing them needs prices.update too (policies/prices.ts). */
  price_lists: CRUD,
  suppliers: CRUD,
  /**
   * Credit: `view` balances, ageing, statements, receivables and payables (a supplier's
   * needs costs.view too); `create` records a customer's payment on account; `update` sets a
   * customer's credit limit and a party's payment terms.
   */
  credit: ['view', 'create', 'update'],
  provinces: CRUD,
  districts: CRUD,
  communes: CRUD,
  villages: CRUD,
  operational_districts: CRUD,
  health_facilities: CRUD,
  gazetteer: ['view', 'generate'],
  discounts: CRUD,
  combos: CRUD,
  orders: [...CRUD, 'cancel', 'approve'],
  invoices: ['list', 'view', 'generate'],
  /**
   * Tax documents (issue 27): `create` issues a sale's tax or commercial invoice; `approve` issues a
   * debit note (a price correction upward). Credit notes come with returns and voids.
   */
  tax_documents: ['list', 'view', 'create', 'approve'],
  purchases: [...CRUD, 'approve', 'cancel'],
  stocks: ['list', 'view', 'create', 'update', 'approve'],
  /**
   * Stock counts (issue 28): `create` starts one, `update` counts (scans; blind: the expected
   * figures are `approve`'s), `approve` sees the differences, approves (posts them) or cancels.
   */
  stock_counts: ['list', 'view', 'create', 'update', 'approve'],
  reports: ['view', 'generate'],
  /** Receipt printers: listed and printed on by the till; `approve` opens the cash drawer by hand. */
  printers: ['list', 'view', 'generate', 'approve'],
  /** Cash drawer shifts: a cashier's own (update: pay-ins, pay-outs, close); `approve`: every shift of one's stores and a close's difference. */
  shifts: ['list', 'view', 'create', 'update', 'approve'],
  /** See and act in every store; without it a user sees and acts only in the stores they cover. */
  all_stores: ['view'],
  /** Cost prices, margins, stock values and purchase costs; without it they are left out of answers. */
  costs: ['view'],
  /** Change a product's selling prices (its other fields need products.update only). */
  prices: ['update'],
  /** The sample data (/samples): `view` its state, `generate` loads it, `delete` removes it. Administrators'. */
  samples: ['view', 'generate', 'delete'],
} as const satisfies Record<string, readonly Action[]>;

export type Resource = keyof typeof RESOURCES;
export type Permission = {
  [R in Resource]: `${R}.${(typeof RESOURCES)[R][number]}`;
}[Resource];

export const PERMISSIONS: readonly Permission[] = Object.entries(RESOURCES).flatMap(([resource, actions]) =>
  (actions as readonly Action[]).map((action) => `${resource}.${action}` as Permission),
);

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

function all(resource: Resource): Permission[] {
  return PERMISSIONS.filter((p) => p.startsWith(`${resource}.`));
}
function pick(resource: Resource, ...actions: Action[]): Permission[] {
  return actions.map((a) => `${resource}.${a}`).filter(isPermission);
}

const ADMIN_ONLY: Resource[] = ['users', 'roles', 'permissions', 'coverage', 'settings', 'audit', 'samples'];
/** Looking places up: every address form picks a village. */
const readPlaces: Permission[] = (['provinces', 'districts', 'communes', 'villages'] as const).flatMap((r) =>
  pick(r, 'list', 'view'),
);
const everyoneGets: Permission[] = [...all('dashboards'), ...all('profiles'), ...all('notifications'), ...readPlaces];

/** The default roles seeded on first start (spec: roles have a name, a group and labels in both languages). */
export const DEFAULT_ROLES = [
  {
    name: 'administrator',
    group: 'system',
    label_en: 'Administrator',
    label_kh: 'អ្នកគ្រប់គ្រងប្រព័ន្ធ',
    permissions: PERMISSIONS,
  },
  {
    name: 'manager',
    group: 'management',
    label_en: 'Manager',
    label_kh: 'អ្នកគ្រប់គ្រង',
    // a manager runs the stores they cover: every store needs all_stores.view, an owner's grant
    permissions: [
      ...PERMISSIONS.filter((p) => !ADMIN_ONLY.includes(p.split('.')[0] as Resource) && p !== 'all_stores.view'),
      ...pick('users', 'list', 'view'),
      ...pick('roles', 'list', 'view'),
      ...pick('settings', 'view'),
    ],
  },
  {
    name: 'cashier',
    group: 'sales',
    label_en: 'Cashier',
    label_kh: 'អ្នកគិតលុយ',
    permissions: [
      ...everyoneGets,
      // delivery steps are the till's too: the cashier hands the parcel to the driver. `cancel` voids
      // a held or unpaid sale; a paid one, and returns, need a manager (policies/orders.ts)
      ...pick('orders', 'list', 'view', 'create', 'update', 'cancel'),
      ...pick('invoices', 'list', 'view', 'generate'),
      ...pick('tax_documents', 'list', 'view', 'create'),
      ...pick('customers', 'list', 'view', 'create', 'update'),
      // the till shows which price list a customer's group buys at
      ...pick('customer_groups', 'list', 'view'),
      ...pick('price_lists', 'list', 'view'),
      ...pick('products', 'list', 'view'),
      ...pick('categories', 'list', 'view'),
      // a carton sold is a unit of the product: the till reads a product's units
      ...pick('units', 'list', 'view'),
      ...pick('discounts', 'list', 'view'),
      ...pick('combos', 'list', 'view'),
      ...pick('stores', 'list', 'view'),
      ...pick('exchange_rates', 'view'),
      ...pick('printers', 'list', 'view', 'generate'),
      ...pick('shifts', 'list', 'view', 'create', 'update'),
      // counting the shelves with a phone, blind
      ...pick('stock_counts', 'list', 'view', 'update'),
    ],
  },
  {
    name: 'stock_keeper',
    group: 'inventory',
    label_en: 'Stock keeper',
    label_kh: 'អ្នកថែរក្សាស្តុក',
    permissions: [
      ...everyoneGets,
      ...pick('products', 'list', 'view', 'create', 'update', 'generate'),
      ...pick('brands', 'list', 'view', 'create', 'update'),
      ...pick('categories', 'list', 'view', 'create', 'update'),
      ...pick('sub_categories', 'list', 'view', 'create', 'update'),
      ...pick('units', 'list', 'view', 'create', 'update'),
      ...all('stocks'),
      // they start and count stock counts; approving the differences is a manager's
      ...pick('stock_counts', 'list', 'view', 'create', 'update'),
      ...pick('purchases', 'list', 'view', 'create', 'update'),
      // they enter what the goods cost; selling prices are a manager's (prices.update)
      ...pick('costs', 'view'),
      ...pick('suppliers', 'list', 'view', 'create', 'update'),
      ...pick('stores', 'list', 'view'),
      ...pick('reports', 'view'),
    ],
  },
] as const satisfies readonly {
  name: string;
  group: string;
  label_en: string;
  label_kh: string;
  permissions: readonly Permission[];
}[];

export type DefaultRoleName = (typeof DEFAULT_ROLES)[number]['name'];
