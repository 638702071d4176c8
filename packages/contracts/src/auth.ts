import { z } from 'zod';
import { LANDING_KEYS } from './screens.ts';

/** POST /api/login (spec section 7). Staff sign in with a name and a password. */
export const loginBody = z.object({
  name: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

export const storeSummary = z.object({ id: z.number().int(), name: z.string(), code: z.string() });
export type StoreSummary = z.infer<typeof storeSummary>;

/**
 * The stores a user works in (the server's coverage, policies/coverage.ts): every store (`all`,
 * with `all_stores.view`) or `store_ids`, their home store among them. The web offers only these
 * where a store is written to; the server refuses the others (422 on the field) whatever it offers.
 */
export const storeCoverage = z.object({ all: z.boolean(), store_ids: z.array(z.number().int()) });
export type StoreCoverage = z.infer<typeof storeCoverage>;

export const userInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  full_name: z.string().nullable(),
  media: z.array(z.object({ file_path: z.string() })),
});
export type UserInfo = z.infer<typeof userInfo>;

export const loginResponse = z.object({
  status: z.literal('success'),
  token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  user_info: userInfo,
  permissions: z.array(z.string()),
  roles: z.array(z.string()),
  store: storeSummary.nullable(),
  /** The stores the user covers (storeCoverage). */
  coverage: storeCoverage,
  /** Where the user starts (screens.ts `landingOf`); null: the default rule. */
  landing: z.enum(LANDING_KEYS).nullable().optional(),
  /** After an administrator's reset: the web asks for a new password before anything else. */
  must_change_password: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshBody = z.object({ refresh_token: z.string().min(1).max(200) });
export const refreshResponse = z.object({
  status: z.literal('success'),
  token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
});
export type RefreshResponse = z.infer<typeof refreshResponse>;

/** Error answers of login and refresh keep the spec's `status` field beside the message. */
export const authErrorResponse = z.object({ status: z.literal('error'), message: z.string() });

export const messageResponse = z.object({ message: z.string() });

export const roleSummary = z.object({
  name: z.string(),
  group: z.string(),
  label_en: z.string(),
  label_kh: z.string(),
});
export type RoleSummary = z.infer<typeof roleSummary>;

/** GET /api/me: who is signed in, with the role and permission names the UI mirrors. */
export const meResponse = z.object({
  data: z.object({
    id: z.number().int(),
    name: z.string(),
    full_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    position: z.string().nullable(),
    status: z.enum(['active', 'inactive']),
    media: z.array(z.object({ file_path: z.string() })),
    store: storeSummary.nullable(),
    roles: z.array(z.string()),
    role_details: z.array(roleSummary),
    permissions: z.array(z.string()),
    /** The stores the user covers (storeCoverage). */
    coverage: storeCoverage,
    landing: z.enum(LANDING_KEYS).nullable().optional(),
    must_change_password: z.boolean().optional(),
  }),
});
export type Me = z.infer<typeof meResponse>['data'];
/** Who is signed in as authentication reads them on each request; `/api/me` adds the coverage. */
export type Identity = Omit<Me, 'coverage'>;
