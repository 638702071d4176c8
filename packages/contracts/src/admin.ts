import { z } from 'zod';
import { PASSWORD_MIN } from './constants.ts';
import { optionalDate, optionalText } from './fields.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';
import { LANDING_KEYS } from './screens.ts';

/**
 * Administration: users, roles with their permissions and members, coverage (stores,
 * operational districts and health facilities), and the audit trail.
 */

export const PASSWORD_MAX = 100;

const text = optionalText;
const date = optionalDate;
const ids = z.array(z.coerce.number().int().min(1)).max(10_000).default([]);
/** An optional password: empty means "unchanged" on update (create requires one on the server). */
const optionalPassword = z
  .string()
  .max(PASSWORD_MAX)
  .nullish()
  .transform((v) => (v ? v : null));

/** Password and confirmation: at least 8 characters, and the same twice. */
function passwordsMatch(
  input: { password: string | null; password_confirmation: string | null },
  ctx: z.core.$RefinementCtx,
) {
  if (input.password === null) return;
  if (input.password.length < PASSWORD_MIN)
    ctx.addIssue({ code: 'too_small', origin: 'string', minimum: PASSWORD_MIN, inclusive: true, path: ['password'] });
  if (input.password !== input.password_confirmation)
    ctx.addIssue({
      code: 'custom',
      path: ['password_confirmation'],
      params: { message: 'validation.password_mismatch' },
    });
}

export const userInput = z
  .object({
    /** The sign-in name. */
    name: z
      .string()
      .trim()
      .min(3)
      .max(50)
      .regex(/^[^\s]+$/),
    full_name: text(100),
    email: z
      .string()
      .trim()
      .email()
      .max(255)
      .nullish()
      .or(z.literal(''))
      .transform((v) => (v ? v : null)),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 -]{5,19}$/)
      .nullish()
      .or(z.literal(''))
      .transform((v) => (v ? v : null)),
    password: optionalPassword,
    password_confirmation: optionalPassword,
    status: z.enum(RECORD_STATUSES).default('active'),
    date_of_birth: date,
    join_date: date,
    position: text(100),
    /** The home store: the till's default, always among the stores covered. */
    store_id: z.coerce
      .number()
      .int()
      .min(1)
      .nullish()
      .transform((v) => v ?? null),
    store_ids: ids,
    role_ids: ids,
  })
  .superRefine(passwordsMatch);
export type UserInput = z.output<typeof userInput>;

export const namedRef = z.object({ id: z.number().int(), name: z.string(), code: z.string() });
export const roleRef = z.object({ id: z.number().int(), name: z.string(), label_en: z.string(), label_kh: z.string() });

/**
 * What the reader may do to a user now (server policies/users.ts): only to users holding no
 * permission the reader lacks, working in the reader's stores; the last administrator cannot be
 * disabled or deleted. `assign`: their coverage; `roles`: their roles.
 */
export const userAbilities = z.object({
  update: z.boolean(),
  delete: z.boolean(),
  disable: z.boolean(),
  reset_password: z.boolean(),
  assign: z.boolean(),
  roles: z.boolean(),
});

export const user = z.object({
  ...recordFields,
  name: z.string(),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(RECORD_STATUSES),
  date_of_birth: z.string().nullable(),
  join_date: z.string().nullable(),
  position: z.string().nullable(),
  profile_image: z.string().nullable(),
  store_id: z.number().int().nullable(),
  store_name: z.string().nullable(),
  store_ids: z.array(z.number().int()),
  stores: z.array(namedRef),
  role_ids: z.array(z.number().int()),
  roles: z.array(roleRef),
  must_change_password: z.boolean(),
  last_login_at: z.string().nullable(),
  last_login_ip: z.string().nullable(),
  abilities: userAbilities.optional(),
});
export type User = z.infer<typeof user>;

export const passwordResetInput = z
  .object({ password: optionalPassword, password_confirmation: optionalPassword })
  .superRefine((input, ctx) => {
    if (input.password === null)
      ctx.addIssue({ code: 'custom', path: ['password'], params: { message: 'validation.required' } });
    passwordsMatch(input, ctx);
  });

/** A user changing their own password (after a reset, or whenever): the current one first. */
export const passwordChangeInput = z
  .object({
    current_password: z.string().min(1).max(PASSWORD_MAX),
    password: optionalPassword,
    password_confirmation: optionalPassword,
  })
  .superRefine((input, ctx) => {
    if (input.password === null)
      ctx.addIssue({ code: 'custom', path: ['password'], params: { message: 'validation.required' } });
    passwordsMatch(input, ctx);
  });

export const userStatusInput = z.object({ status: z.enum(RECORD_STATUSES) });

// Roles

export const roleInput = z.object({
  name: z
    .string()
    .trim()
    .min(2)
    .max(50)
    .regex(/^[a-z0-9_]+$/),
  group: z.string().trim().min(2).max(50),
  label_en: z.string().trim().min(2).max(100),
  label_kh: z.string().trim().min(1).max(100),
  permissions: z.array(z.string().max(100)).max(1000).default([]),
  /** The screen its members start on (screens.ts LANDINGS); null or left out: the default rule. */
  landing: z
    .enum(LANDING_KEYS)
    .nullish()
    .transform((v) => v ?? null),
});
export type RoleInput = z.output<typeof roleInput>;

export const role = z.object({
  ...recordFields,
  name: z.string(),
  group: z.string(),
  label_en: z.string(),
  label_kh: z.string(),
  /** One of the default roles: it cannot be deleted, and can be reset to its defaults. */
  is_system: z.boolean(),
  landing: z.enum(LANDING_KEYS).nullable(),
  permissions: z.array(z.string()),
  users_count: z.number().int(),
  member_ids: z.array(z.number().int()),
  /**
   * What the reader may do to the role (server policies/roles.ts): only one who holds every
   * permission in it changes it, gives it or takes it (`assign`).
   */
  abilities: z.object({ update: z.boolean(), delete: z.boolean(), reset: z.boolean(), assign: z.boolean() }).optional(),
});
export type Role = z.infer<typeof role>;

export const roleMembersInput = z.object({ user_ids: ids });

/** GET /api/permissions: the matrix's rows (resources) and columns (the spec's actions). */
export const permissionMatrix = z.object({
  data: z.object({
    actions: z.array(z.string()),
    resources: z.array(z.object({ resource: z.string(), actions: z.array(z.string()) })),
    /** The permissions the reader may put in a role: those they hold (server policies/roles.ts). */
    grantable: z.array(z.string()).optional(),
  }),
});

// Coverage

export const coverageInput = z.object({
  store_ids: ids,
  operational_district_ids: ids,
  health_facility_ids: ids,
});
export const userCoverage = z.object({
  store_id: z.number().int().nullable(),
  store_ids: z.array(z.number().int()),
  operational_district_ids: z.array(z.number().int()),
  health_facility_ids: z.array(z.number().int()),
});
export type UserCoverage = z.infer<typeof userCoverage>;

const area = z.object({ id: z.number().int(), code: z.string(), name_en: z.string().nullable(), name_kh: z.string() });
/** The areas a user can be given: provinces → operational districts → health facilities. */
export const coverageAreas = z.object({
  data: z.array(
    area.extend({
      operational_districts: z.array(area.extend({ health_facilities: z.array(area) })),
    }),
  ),
});
export type CoverageAreas = z.infer<typeof coverageAreas>['data'];

// Audit trail

export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.password_changed',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.restored',
  'user.disabled',
  'user.enabled',
  'user.password_reset',
  'user.coverage',
  'role.created',
  'role.updated',
  'role.deleted',
  'role.reset',
  'role.members',
  'product.price',
  'product.barcode',
  'stock.adjustment',
  'stock.write_off',
  'order.void',
  'order.refund',
  'order.credit_over_limit',
  'order.sold_offline_beyond_stock',
  'supplier.payment',
  'exchange_rate.changed',
  'settings.sale',
  'settings.system',
  'settings.shift',
  'settings.labels',
  'settings.scale',
  'shift.closed',
  'store.payee',
  'printer.created',
  'printer.updated',
  'printer.deleted',
  'printer.restored',
  'shift.pay_in',
  'shift.pay_out',
  'tax_document.issued',
  'exchange_rate.official',
  'einvoice.connected',
  'einvoice.disconnected',
  'einvoice.purchase_drafted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntry = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  ip: z.string().nullable(),
  action: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(100).optional(),
  'filter[action]': z.enum(AUDIT_ACTIONS).optional(),
  'filter[user_id]': z.coerce.number().int().min(1).optional(),
  'filter[subject_type]': z.string().max(50).optional(),
  'filter[subject_id]': z.coerce.number().int().min(1).optional(),
  'filter[from]': z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  'filter[to]': z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
