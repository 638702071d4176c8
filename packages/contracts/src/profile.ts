import { z } from 'zod';
import { roleSummary, storeSummary } from './auth.ts';
import { optionalDate, optionalPhone, optionalText } from './fields.ts';

/**
 * A user's own profile (spec section 3: the user's fields and the profile extras). Everyone reads
 * and edits their own at `/api/profile`; the sign-in name, status, position and join date are the
 * administrators' (the users screen). The picture is uploaded on its own (`POST /api/users/{id}/image`).
 */
export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

const text = optionalText;
const email = z
  .string()
  .trim()
  .max(150)
  .pipe(z.email())
  .nullish()
  .or(z.literal(''))
  .transform((v) => (v ? v : null));
const phone = optionalPhone;
const date = optionalDate;

export const profileInput = z.object({
  full_name: text(100),
  email,
  phone,
  date_of_birth: date,
  gender: z
    .enum(GENDERS)
    .nullish()
    .transform((v) => v ?? null),
  nationality: text(60),
  address: text(255),
  bio: text(1000),
  skills: text(500),
  emergency_contact_name: text(100),
  emergency_contact_relationship: text(60),
  emergency_contact_phone: phone,
  emergency_contact_email: email,
  timezone: text(60),
  location: text(120),
});
export type ProfileInput = z.input<typeof profileInput>;

export const profile = z.object({
  id: z.number().int(),
  name: z.string(),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.string(),
  position: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  join_date: z.string().nullable(),
  /** The picture's address (`/uploads/users/…`), or null. */
  profile_image: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  nationality: z.string().nullable(),
  address: z.string().nullable(),
  bio: z.string().nullable(),
  skills: z.string().nullable(),
  emergency_contact_name: z.string().nullable(),
  emergency_contact_relationship: z.string().nullable(),
  emergency_contact_phone: z.string().nullable(),
  emergency_contact_email: z.string().nullable(),
  timezone: z.string().nullable(),
  location: z.string().nullable(),
  store: storeSummary.nullable(),
  roles: z.array(roleSummary),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof profile>;

/** `PUT /api/profile/password`: the current password, and the new one twice. Other sign-ins end. */

/** A user's picture (`POST /api/users/{id}/image`): what the header's avatar shows. */
export const userImage = z.object({ id: z.number().int(), profile_image: z.string().nullable() });
