import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

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
}

export interface RolesTable extends Timestamps, SoftDelete {
  id: Generated<number>;
  name: string;
  group_name: string;
  label_en: string;
  label_kh: string;
  /** 1 for the administrator role, which always holds every permission. */
  is_system: number;
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
  settings: SettingsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Store = Selectable<StoresTable>;
export type Role = Selectable<RolesTable>;
