import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings on both databases (PostgreSQL's
 * timestamptz is parsed to the same string form in database.ts), so code never branches on dialect.
 */
type Timestamps = { created_at: string; updated_at: string };
type SoftDelete = { deleted_at: string | null };
export type RecordStatus = 'active' | 'inactive';

export interface StoresTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  code: string;
  phone: string | null;
  address: string | null;
  village_id: number | null;
  status: RecordStatus;
  /** The store's Bakong receiving account (KHQR), all null when it takes none. */
  khqr_account_id: string | null;
  khqr_merchant_name: string | null;
  khqr_merchant_city: string | null;
  khqr_merchant_id: string | null;
  khqr_acquiring_bank: string | null;
}

export interface UsersTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  /** The sign-in name (spec: staff sign in with a name and a password); unique, case-insensitive. */
  name: string;
  full_name: string | null;
  email: string | null;
  phone: string | null;
  password_hash: string;
  status: RecordStatus;
  date_of_birth: string | null;
  join_date: string | null;
  position: string | null;
  profile_image: string | null;
  store_id: number | null;
  // the profile extras (spec section 3)
  gender: string | null;
  nationality: string | null;
  address: string | null;
  bio: string | null;
  skills: string | null;
  emergency_contact_name: string | null;
  emergency_contact_relationship: string | null;
  emergency_contact_phone: string | null;
  emergency_contact_email: string | null;
  timezone: string | null;
  location: string | null;
  /** 1 after an administrator's password reset, until the user sets their own. */
  must_change_password: Generated<number>;
  last_login_at: string | null;
  last_login_ip: string | null;
}

export interface UserOperationalDistrictsTable {
  user_id: number;
  operational_district_id: number;
}

export interface UserHealthFacilitiesTable {
  user_id: number;
  health_facility_id: number;
}

/** Who did what, when, from where: written in the action's transaction, never changed. */
export interface AuditLogTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string | null;
  ip: string | null;
  action: string;
  subject_type: string | null;
  subject_id: number | null;
  before: string | null;
  after: string | null;
  created_at: string;
}

export interface RolesTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  group_name: string;
  label_en: string;
  label_kh: string;
  /** 1 for the administrator role, which always holds every permission. */
  is_system: number;
  /** The screen its members start on (contracts screens.ts LANDINGS); null: the default rule. */
  landing: string | null;
}

export interface PermissionsTable {
  id: Generated<number>;
  name: string;
  resource: string;
  action: string;
  created_at: string;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

/** One sign-in: the chain of access and refresh tokens issued from it. Revoking it ends them all. */
export interface AuthSessionsTable {
  id: Generated<number>;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_used_at: string;
  revoked_at: string | null;
}

export interface AuthTokensTable {
  id: Generated<number>;
  session_id: number;
  kind: 'access' | 'refresh';
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  expires_at: string;
  /** A refresh token is used once; a second use is theft and revokes the session. */
  used_at: string | null;
  /** Who used it: SHA-256 of the client's address and user agent (a retry must come from them). */
  used_by: string | null;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  /** JSON text, validated by the settings schema when read. */
  value: string;
  updated_at: string;
}

export interface BrandsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  description: string | null;
  status: RecordStatus;
}

export interface CategoriesTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name_en: string;
  name_kh: string;
  description: string | null;
  status: RecordStatus;
}

export interface SubCategoriesTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  category_id: number;
  name_en: string;
  name_kh: string;
  status: RecordStatus;
}

export interface UnitsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name_en: string;
  name_kh: string;
  short_name: string;
  /** Null for a base unit; otherwise this unit is `factor` of the base unit. */
  base_unit_id: number | null;
  factor: number;
  /** Decimals of a quantity in it (kg: 3); quantities are kept in its smallest step (0037). */
  decimals: Generated<number>;
  status: RecordStatus;
}

interface PlaceColumns extends Timestamps, SoftDelete {
  id: Generated<number>;
  code: string;
  name_en: string | null;
  name_kh: string;
  name_fr: string | null;
}
export interface ProvincesTable extends PlaceColumns {
  type: 'province' | 'municipality';
}
export interface DistrictsTable extends PlaceColumns {
  province_id: number;
}
export interface CommunesTable extends PlaceColumns {
  district_id: number;
}
export interface VillagesTable extends PlaceColumns {
  commune_id: number;
}
export interface OperationalDistrictsTable extends PlaceColumns {
  province_id: number;
}
export interface HealthFacilitiesTable extends PlaceColumns {
  operational_district_id: number;
}

export interface CustomersTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  phone: string | null;
  address: string | null;
  shipping_address: string | null;
  village_id: number | null;
  status: RecordStatus;
  is_walk_in: Generated<number>;
  vat_number: string | null;
  /** US cents a customer may owe; null: not limited; 0: nothing may be left unpaid (credit, 0023). */
  credit_limit_cents: number | null;
  payment_terms_days: Generated<number>;
  customer_group_id: number | null;
}

export interface CustomerGroupsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name_en: string;
  name_kh: string;
  status: RecordStatus;
}

/** A price-list row (contracts prices.ts): a unit's price or a quantity break, of a group or the base list. */
export interface PriceListsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  customer_group_id: number | null;
  scope: 'product' | 'category';
  product_id: number | null;
  unit_id: number | null;
  category_id: number | null;
  min_quantity: number;
  price_cents: number | null;
  price_khr: number | null;
  off_bp: number | null;
  status: RecordStatus;
}

export interface SuppliersTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  type: 'company' | 'individual';
  phone: string | null;
  address: string | null;
  shipping_address: string | null;
  village_id: number | null;
  status: RecordStatus;
  payment_terms_days: Generated<number>;
}

export interface ProductsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name_en: string;
  name_kh: string;
  short_name: string | null;
  sku: string;
  barcode: string | null;
  brand_id: number | null;
  category_id: number;
  sub_category_id: number | null;
  unit_id: number;
  /** US cents. */
  price_usd_cents: number;
  /** Riel; null follows the exchange rate. */
  price_khr: number | null;
  cost_usd_cents: number;
  taxable: number;
  image_path: string | null;
  thumbnail_path: string | null;
  expiry_date: string | null;
  reorder_level: number;
  status: RecordStatus;
  /** Each unit carries its serial (0041): product_serials. */
  serial_tracked: Generated<number>;
  warranty_months: Generated<number>;
}

export interface SequencesTable {
  key: string;
  value: number;
}

export interface StockBatchesTable {
  id: Generated<number>;
  product_id: number;
  lot: string | null;
  expiry_date: string | null;
  batch_key: string;
  created_at: string;
}

/** Written only by modules/stock/ledger.ts. */
export interface StockLevelsTable {
  id: Generated<number>;
  store_id: number;
  product_id: number;
  batch_id: number;
  quantity: number;
  updated_at: string;
}

/** Written only by modules/stock/ledger.ts: quantity and value of a product, all stores together. */
export interface StockValuationsTable {
  product_id: number;
  quantity: number;
  value_cents: number;
  updated_at: string;
}

export interface StockMovementsTable {
  id: Generated<number>;
  type: string;
  store_id: number;
  product_id: number;
  batch_id: number;
  quantity: number;
  value_cents: number;
  balance: number;
  reason: string | null;
  note: string | null;
  document_type: string | null;
  document_id: number | null;
  user_id: number | null;
  created_at: string;
}

export interface StockAdjustmentsTable {
  id: Generated<number>;
  store_id: number;
  reason: string;
  note: string | null;
  created_by: number | null;
  created_at: string;
}

export interface StockTransfersTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  from_store_id: number;
  to_store_id: number;
  status: 'draft' | 'sent' | 'received' | 'cancelled';
  note: string | null;
  created_by: number | null;
  sent_at: string | null;
  received_at: string | null;
  cancelled_at: string | null;
}

/** A stock count (issue 28, modules/stock/counts.ts): one store and zone, counted blind. */
export interface StockCountsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  store_id: number;
  zone: string | null;
  note: string | null;
  status: 'open' | 'submitted' | 'approved' | 'cancelled';
  created_by: number | null;
  submitted_at: string | null;
  approved_at: string | null;
  approved_by: number | null;
  cancelled_at: string | null;
  adjustment_id: number | null;
}

/** A count's line: one per product; `expected` is what the store held at its first scan. */
export interface StockCountLinesTable {
  id: Generated<number>;
  count_id: number;
  product_id: number;
  counted: number;
  expected: number;
  difference_value_cents: number | null;
  scanned_by: number | null;
  scanned_at: string;
  updated_at: string;
}

export interface StockTransferItemsTable {
  id: Generated<number>;
  transfer_id: number;
  product_id: number;
  unit_id: number;
  factor: number;
  quantity: number;
  /** The serials the line moves, a JSON array (0041; null: none). */
  serials: string | null;
}

export interface PurchasesTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  supplier_id: number;
  store_id: number;
  purchase_date: string;
  notes: string | null;
  status: 'draft' | 'ordered' | 'partially_received' | 'received' | 'cancelled';
  subtotal_cents: number;
  shipping_cents: number;
  tax_cents: number;
  grand_total_cents: number;
  paid_cents: number;
  payment_status: 'unpaid' | 'partially_paid' | 'paid';
  items_count: number;
  created_by: number | null;
  received_at: string | null;
  cancelled_at: string | null;
}

export interface PurchaseItemsTable {
  id: Generated<number>;
  purchase_id: number;
  product_id: number;
  unit_id: number;
  factor: number;
  quantity: number;
  received_quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
  shipping_share_cents: number;
  received_value_cents: number;
  lot: string | null;
  expiry_date: string | null;
}

export interface PurchasePaymentsTable {
  id: Generated<number>;
  purchase_id: number;
  amount_cents: number;
  method: string;
  paid_at: string;
  reference: string | null;
  note: string | null;
  created_by: number | null;
  created_at: string;
}

export interface IdempotencyKeysTable {
  key: string;
  user_id: number;
  route: string;
  request_hash: string;
  status_code: number | null;
  response: string | null;
  /** What the keyed work answered (JSON), written in its transaction: a lost answer is rebuilt from it. */
  result: string | null;
  created_at: string;
}

/** The stores a user covers: sees and acts in (policies/coverage.ts). */
export interface UserStoresTable {
  user_id: number;
  store_id: number;
}

/** The resource kit's search index (kit/search.ts). */
export interface SearchTermsTable {
  resource: string;
  term: string;
  record_id: number;
  /** The term's first two characters (kit/search.ts leadOf). */
  lead: string;
  /** The record's sort key (Searchable.sortKey), null for resources without one. */
  sort_key: string | null;
}

export interface SearchIndexesTable {
  resource: string;
  version: number;
  built_at: string;
}

/** A discount: `amount` in basis points for a percentage, cents for a value or a fixed price. */
export interface DiscountsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  type: 'percentage' | 'value' | 'fixed';
  amount: number;
  scope: 'product' | 'category' | 'order';
  product_id: number | null;
  category_id: number | null;
  starts_on: string | null;
  ends_on: string | null;
  status: RecordStatus;
}

/** A combo (bundle): products sold together at one price. */
export interface CombosTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name_en: string;
  name_kh: string;
  description: string | null;
  sku: string;
  barcode: string | null;
  selling_price_cents: number;
  status: RecordStatus;
  created_by: number | null;
}

export interface ComboItemsTable {
  id: Generated<number>;
  combo_id: number;
  product_id: number;
  unit_id: number;
  factor: number;
  quantity: number;
}

/** The history of exchange rates, riel per dollar; the newest is current. */
export interface ExchangeRatesTable {
  id: Generated<number>;
  rate_khr: number;
  rate_in_khr: number | null;
  rate_out_khr: number | null;
  note: string | null;
  created_by: number | null;
  created_at: string;
}

export interface DB {
  products: ProductsTable;
  customers: CustomersTable;
  suppliers: SuppliersTable;
  provinces: ProvincesTable;
  districts: DistrictsTable;
  communes: CommunesTable;
  villages: VillagesTable;
  operational_districts: OperationalDistrictsTable;
  health_facilities: HealthFacilitiesTable;
  brands: BrandsTable;
  categories: CategoriesTable;
  sub_categories: SubCategoriesTable;
  units: UnitsTable;
  stores: StoresTable;
  users: UsersTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  auth_sessions: AuthSessionsTable;
  auth_tokens: AuthTokensTable;
  display_pairings: DisplayPairingsTable;
  settings: SettingsTable;
  search_terms: SearchTermsTable;
  sequences: SequencesTable;
  stock_batches: StockBatchesTable;
  stock_levels: StockLevelsTable;
  stock_valuations: StockValuationsTable;
  stock_movements: StockMovementsTable;
  stock_adjustments: StockAdjustmentsTable;
  stock_transfers: StockTransfersTable;
  stock_transfer_items: StockTransferItemsTable;
  stock_counts: StockCountsTable;
  stock_count_lines: StockCountLinesTable;
  purchases: PurchasesTable;
  purchase_items: PurchaseItemsTable;
  purchase_payments: PurchasePaymentsTable;
  idempotency_keys: IdempotencyKeysTable;
  user_stores: UserStoresTable;
  search_indexes: SearchIndexesTable;
  discounts: DiscountsTable;
  customer_groups: CustomerGroupsTable;
  price_lists: PriceListsTable;
  combos: CombosTable;
  combo_items: ComboItemsTable;
  exchange_rates: ExchangeRatesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_item_batches: OrderItemBatchesTable;
  product_serials: ProductSerialsTable;
  order_payments: OrderPaymentsTable;
  order_returns: OrderReturnsTable;
  invoices: InvoicesTable;
  tax_documents: TaxDocumentsTable;
  tax_document_lines: TaxDocumentLinesTable;
  official_rates: OfficialRatesTable;
  printers: PrintersTable;
  khqr_payments: KhqrPaymentsTable;
  bank_transactions: BankTransactionsTable;
  notifications: NotificationsTable;
  notification_marks: NotificationMarksTable;
  app_secrets: AppSecretsTable;
  sample_loads: SampleLoadsTable;
  sample_records: SampleRecordsTable;
  user_operational_districts: UserOperationalDistrictsTable;
  user_health_facilities: UserHealthFacilitiesTable;
  audit_log: AuditLogTable;
  shifts: ShiftsTable;
  shift_movements: ShiftMovementsTable;
  customer_payments: CustomerPaymentsTable;
  daily_sales: DailySalesTable;
  daily_orders: DailyOrdersTable;
  daily_payments: DailyPaymentsTable;
  daily_stock: DailyStockTable;
  daily_customers: DailyCustomersTable;
  einvoice_connections: EInvoiceConnectionsTable;
  einvoice_connect_states: EInvoiceConnectStatesTable;
  einvoice_outbox: EInvoiceOutboxTable;
  einvoice_received: EInvoiceReceivedTable;
}

/** The business's CamInvoice connection (0035): tokens sealed (modules/einvoice/seal.ts). */
export interface EInvoiceConnectionsTable {
  id: Generated<number>;
  status: 'connected' | 'revoked' | 'disconnected';
  endpoint_id: string;
  tin: string | null;
  company_name_en: string | null;
  company_name_kh: string | null;
  refresh_token: string;
  access_token: string | null;
  access_expires_at: string | null;
  last_polled_at: string | null;
  problem: string | null;
  connected_by: number | null;
  connected_at: string;
  revoked_at: string | null;
  updated_at: string;
}

export interface EInvoiceConnectStatesTable {
  state: string;
  user_id: number;
  expires_at: string;
}

export interface EInvoiceOutboxTable {
  id: Generated<number>;
  document_kind: 'invoice' | 'credit_note' | 'debit_note';
  document_id: number;
  store_id: number;
  number: string;
  status: 'draft' | 'submitting' | 'valid' | 'delivered' | 'accepted' | 'rejected';
  platform_document_id: string | null;
  verification_link: string | null;
  reason: string | null;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  submitted_at: string | null;
  xml: string | null;
  created_at: string;
  updated_at: string;
}

export interface EInvoiceReceivedTable {
  id: Generated<number>;
  platform_document_id: string;
  document_type: string;
  number: string;
  issue_date: string;
  supplier_name: string;
  supplier_tin: string | null;
  supplier_endpoint_id: string | null;
  total_khr: number;
  rate_khr: number | null;
  /** JSON: the lines as read from the UBL (contracts einvoice.ts `receivedLine`). */
  lines: string;
  xml: string;
  purchase_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Confirmed orders per day of the order, store and customer: spending, still due, the last purchase. */
export interface DailyCustomersTable {
  day: string;
  store_id: number;
  customer_id: number;
  orders: number;
  net_cents: number;
  due_cents: number;
  last_at: string | null;
}

/**
 * The reports' daily rollups (db/rollups.ts), written in the transaction of the sale, payment,
 * return, void or movement that changes them. `day` is the depot's local day (YYYY-MM-DD).
 */
/** Confirmed orders' lines per day of the order, store and product or combo (`kind`, `item_id`). */
export interface DailySalesTable {
  day: string;
  store_id: number;
  kind: string;
  item_id: number;
  quantity: number;
  returned_quantity: number;
  gross_cents: number;
  discount_cents: number;
  net_cents: number;
  tax_cents: number;
}

/** Confirmed orders per day and local hour of the order, store and cashier (0: none). */
export interface DailyOrdersTable {
  day: string;
  hour: number;
  store_id: number;
  cashier_id: number;
  orders: number;
  gross_cents: number;
  discount_cents: number;
  tax_cents: number;
  total_cents: number;
  change_cents: number;
  change_khr: number;
}

/** Payments and refunds per day of their own, the order's store and cashier (0: none), method and kind. */
export interface DailyPaymentsTable {
  day: string;
  store_id: number;
  cashier_id: number;
  method: string;
  kind: string;
  payments: number;
  amount: number;
  amount_cents: number;
}

/** The ledger's movements per day, store, product, type and whether an order made them (1) or not (0). */
export interface DailyStockTable {
  day: string;
  store_id: number;
  product_id: number;
  type: string;
  of_order: number;
  quantity: number;
  value_cents: number;
  last_at: string;
}

export interface OrdersTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  store_id: number;
  cashier_id: number | null;
  customer_id: number;
  order_date: string;
  status: 'held' | 'confirmed' | 'cancelled';
  payment_status: 'unpaid' | 'partially_paid' | 'paid' | 'pending' | 'onhold';
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  delivery_fee_cents: number;
  total_cents: number;
  paid_cents: number;
  change_cents: number;
  change_khr: number;
  /** The change as handed back (0019): what left the dollar and the riel drawers. */
  change_given_cents: Generated<number>;
  change_given_khr: Generated<number>;
  exchange_rate_khr: number;
  rate_in_khr: number | null;
  rate_out_khr: number | null;
  khr_step: number;
  total_khr: number;
  vat_rate_bp: number;
  discount_id: number | null;
  note: string | null;
  shipping_address: string | null;
  delivery_status:
    | 'preparing'
    | 'preparing_done'
    | 'ready_for_delivery'
    | 'shipping'
    | 'shipped'
    | 'returned'
    | 'completed'
    | null;
  items_count: number;
  cancelled_at: string | null;
  cancelled_by: number | null;
  cancel_reason: string | null;
  /** The manager whose approval, entered at the till, allowed a void of a paid sale. */
  approved_by: number | null;
  /** The cashier's shift open at the store when it was checked out (shifts), if any. */
  shift_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The shift whose drawer the change of the settling payment left (0033). */
  change_shift_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The manager whose approval let the sale take the customer past their credit limit. */
  credit_approved_by: Generated<number | null>;
  /** When the till sold it with no connection (0025); null: sold online. */
  offline_sold_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The device's receipt number of an offline sale (`OFF-<device>-<n>`). */
  offline_receipt_no: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: an offline sale that took more than the store had. */
  oversold: Generated<number>;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  kind: 'product' | 'combo';
  product_id: number | null;
  combo_id: number | null;
  name_en: string;
  name_kh: string;
  sku: string;
  unit_id: number | null;
  factor: number;
  quantity: number;
  unit_price_cents: number;
  discount_id: number | null;
  discount_name: string | null;
  line_discount_cents: number;
  order_discount_cents: number;
  net_cents: number;
  tax_cents: number;
  total_cents: number;
  taxable: number;
  returned_quantity: number;
  /** Why the line costs what it does (contracts PRICE_SOURCES) and the list it came from. */
  price_source: Generated<'product' | 'base' | 'group' | 'break' | 'combo'>;
  list_price_cents: number | null;
  price_list_en: string | null;
  price_list_kh: string | null;
  /** Base units an offline sale took beyond the store's stock (0025). */
  oversold: Generated<number>;
  /** The serials of the units the line sells, a JSON array (0041; null: none). */
  serials: string | null;
}

/** One unit of a serial-tracked product (0041): where it is, what brought it, what sold it. */
export interface ProductSerialsTable {
  id: Generated<number>;
  product_id: number;
  serial: string;
  store_id: number;
  status: 'in_stock' | 'sold' | 'returned' | 'moved';
  purchase_item_id: number | null;
  order_item_id: number | null;
  transfer_id: number | null;
  warranty_months: number;
  sold_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The units an order line took, batch by batch: cancels and returns put these back. */
export interface OrderItemBatchesTable {
  id: Generated<number>;
  order_item_id: number;
  product_id: number;
  batch_id: number;
  quantity: number;
  value_cents: number;
  returned: number;
}

export interface OrderPaymentsTable {
  id: Generated<number>;
  order_id: number;
  kind: 'payment' | 'refund';
  method: string;
  amount: number;
  amount_cents: number;
  transaction_id: string | null;
  received_by: number | null;
  created_at: string;
  /** The customer payment this share of an order's payment came from (credit, 0023). */
  customer_payment_id: Generated<number | null>;
  /** The shift whose drawer this cash went into or came out of: its handler's open shift (0033). */
  shift_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A customer's payment on account, allocated to their orders (its shares are order payments). */
export interface CustomerPaymentsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  customer_id: number;
  store_id: number;
  method: string;
  /** Riel for cash_khr, else cents. */
  amount: number;
  amount_cents: number;
  exchange_rate_khr: number;
  transaction_id: string | null;
  note: string | null;
  received_by: number | null;
}

export interface OrderReturnsTable {
  id: Generated<number>;
  order_id: number;
  refund_cents: number;
  note: string | null;
  created_by: number | null;
  /** The manager whose approval, entered at the till, allowed the refund. */
  approved_by: number | null;
  created_at: string;
}

export interface InvoicesTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  order_id: number;
  store_id: number;
  total_cents: number;
  tax_cents: number;
  items_count: number;
  paid_at: string;
}

/** A tax document (0034): written once when issued, never updated (modules/tax). */
export interface TaxDocumentsTable {
  id: Generated<number>;
  kind: string;
  series: string;
  sequence: number;
  number: string;
  issued_at: string;
  issue_date: string;
  store_id: number;
  order_id: number;
  /** The order, on an invoice only: one invoice a sale. */
  invoiced_order_id: number | null;
  return_id: number | null;
  original_id: number | null;
  reason: string | null;
  seller_name: string;
  seller_address: string | null;
  seller_tin: string | null;
  seller_phone: string | null;
  customer_id: number;
  buyer_name: string;
  buyer_address: string | null;
  buyer_tin: string | null;
  buyer_phone: string | null;
  vat_rate_bp: number;
  net_cents: number;
  tax_cents: number;
  total_cents: number;
  net_khr: number;
  tax_khr: number;
  total_khr: number;
  rate_khr: number;
  rate_source: string;
  rate_date: string;
  created_by: number | null;
  created_at: string;
}

export interface TaxDocumentLinesTable {
  id: Generated<number>;
  document_id: number;
  line_no: number;
  order_item_id: number | null;
  description_kh: string;
  description_en: string;
  sku: string | null;
  unit_kh: string | null;
  unit_en: string | null;
  /** Whole steps of the unit (grams); `decimals` says how to read them (0042, kg: 3). */
  quantity: number;
  decimals: Generated<number>;
  unit_price_cents: number;
  discount_cents: number;
  tax_category: string;
  tax_rate_bp: number;
  net_cents: number;
  tax_cents: number;
  total_cents: number;
}

/** A published rate (0034): the NBC's of a day or the GDT's of a month, by hand or from the feed. */
export interface OfficialRatesTable {
  id: Generated<number>;
  kind: string;
  date: string;
  rate_khr: number;
  source: string;
  created_by: number | null;
  created_at: string;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Store = Selectable<StoresTable>;
export type Role = Selectable<RolesTable>;

/** A store's receipt printer on the network: the server sends it ESC/POS raster over TCP. */
export interface PrintersTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  store_id: number;
  name: string;
  host: string;
  port: number;
  paper: '80' | '58';
  /** 0/1: kick the cash drawer wired to the printer after a cash sale's receipt. */
  drawer_kick: number;
  drawer_pin: 2 | 5;
  status: RecordStatus;
}

/** A KHQR made for an order: what the customer's bank app reads, and how Bakong finds the payment. */
export interface KhqrPaymentsTable {
  id: Generated<number>;
  order_id: number;
  payload: string;
  md5: string;
  currency: 'USD' | 'KHR';
  amount: number;
  amount_cents: number;
  merchant_name: string;
  expires_at: string;
  paid_hash: string | null;
  /** 1: made on the device without a connection, checked with Bakong once synced. */
  offline: Generated<number>;
  /** When Bakong was last asked about it. */
  checked_at: string | null;
  created_by: number | null;
  created_at: string;
}

/** A customer display paired with a till's session (modules/display): SHA-256 of its code and token. */
export interface DisplayPairingsTable {
  id: Generated<number>;
  session_id: number;
  user_id: number;
  store_id: number | null;
  code_hash: string | null;
  code_expires_at: string;
  token_hash: string | null;
  paired_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A Bakong transaction that paid a sale (a KHQR's or a claimed transfer's): one hash, one sale. */
export interface BankTransactionsTable {
  id: Generated<number>;
  hash: string;
  order_id: number;
  source: 'khqr' | 'transfer';
  currency: 'USD' | 'KHR';
  amount: number;
  from_account: string | null;
  created_by: number | null;
  created_at: string;
}

/** What was notified already (a low product, an expiring batch): told once while it lasts. */
export interface NotificationMarksTable {
  kind: string;
  subject: string;
  created_at: string;
}

/** Laravel's notifications table (for users only, so no `notifiable_type`), plus `archived_at`. */
export interface NotificationsTable {
  /** A uuid. */
  id: string;
  type: string;
  notifiable_id: number;
  /** JSON text: the kind's data and its link. */
  data: string;
  read_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Secrets generated on first start and shared by every process on the database (never sent to a client). */
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** The sample data's one load (name `demo`): loading, loaded, removing or failed. */
export interface SampleLoadsTable {
  name: string;
  status: 'loading' | 'loaded' | 'removing' | 'failed';
  user_id: number | null;
  started_at: string;
  finished_at: string | null;
}

/** A record the sample data's load created: removal takes these and only these. */
export interface SampleRecordsTable {
  table_name: string;
  record_id: number;
}

export interface ShiftsTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  number: string;
  store_id: number;
  till: string;
  user_id: number;
  status: 'open' | 'closed';
  open_till: string | null;
  open_user: number | null;
  opened_at: string;
  closed_at: string | null;
  note: string | null;
  close_note: string | null;
  float_count: string;
  float_usd_cents: number;
  float_khr: number;
  counted_count: string | null;
  closing: string | null;
  expected_usd_cents: number | null;
  expected_khr: number | null;
  counted_usd_cents: number | null;
  counted_khr: number | null;
  difference_usd_cents: number | null;
  difference_khr: number | null;
  closed_by: number | null;
  approved_by: number | null;
}

export interface ShiftMovementsTable {
  id: Generated<number>;
  shift_id: number;
  kind: 'pay_in' | 'pay_out';
  currency: 'usd' | 'khr';
  amount: number;
  reason: string;
  created_by: number | null;
  created_at: string;
}
