import type { Profile, profileInput } from '@depot/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { removeImages, storeImage } from '../../kit/images.ts';
import { assertChangesPicture } from '../../policies/profile.ts';

const COLUMNS = [
  'id',
  'name',
  'full_name',
  'email',
  'phone',
  'status',
  'position',
  'date_of_birth',
  'join_date',
  'profile_image',
  'gender',
  'nationality',
  'address',
  'bio',
  'skills',
  'emergency_contact_name',
  'emergency_contact_relationship',
  'emergency_contact_phone',
  'emergency_contact_email',
  'timezone',
  'location',
  'created_at',
  'updated_at',
] as const;

/** A user's picture this server stored (`/uploads/users/…`), not an address kept from elsewhere. */
const uploaded = (path: string | null) => (path?.startsWith('/uploads/users/') ? path : null);

/**
 * A user's own profile: read and edit (the password: auth.service `changePassword`); and a user's
 * picture, which the user changes on their own profile and an administrator (`users.update`)
 * on anyone's.
 */
export function profileService(db: Db, uploadsDir: string) {
  async function row(userId: number) {
    const user = await db
      .selectFrom('users')
      .select(COLUMNS)
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) throw notFound();
    return user;
  }

  async function show(actor: AuthContext): Promise<Profile> {
    const user = await row(actor.userId);
    return {
      ...user,
      gender: (user.gender as Profile['gender']) ?? null,
      store: actor.profile.store,
      roles: actor.profile.role_details,
    };
  }

  /** The user whose picture the actor changes, when the policy lets them (policies/profile.ts). */
  async function pictureOwner(actor: AuthContext, userId: number) {
    assertChangesPicture(actor, userId);
    return row(userId);
  }

  return {
    show,
    pictureOwner,

    async update(actor: AuthContext, input: z.output<typeof profileInput>): Promise<Profile> {
      await db
        .updateTable('users')
        .set({ ...input, updated_at: now() })
        .where('id', '=', actor.userId)
        .execute();
      return show(actor);
    },

    /** A 512 px square WebP through the picture pipeline; the picture it replaces is removed. */
    async setPicture(actor: AuthContext, userId: number, bytes: Buffer) {
      const user = await pictureOwner(actor, userId);
      const [file] = await storeImage(uploadsDir, 'users', String(userId), bytes, [
        { suffix: '', size: 512, fit: 'cover', format: 'webp' },
      ]);
      const path = `/uploads/${file}`;
      await db.updateTable('users').set({ profile_image: path, updated_at: now() }).where('id', '=', userId).execute();
      await removeImages(uploadsDir, [uploaded(user.profile_image)]);
      return { id: userId, profile_image: path };
    },

    async removePicture(actor: AuthContext, userId: number) {
      const user = await pictureOwner(actor, userId);
      await db.updateTable('users').set({ profile_image: null, updated_at: now() }).where('id', '=', userId).execute();
      await removeImages(uploadsDir, [uploaded(user.profile_image)]);
      return { id: userId, profile_image: null };
    },
  };
}

export type ProfileService = ReturnType<typeof profileService>;
