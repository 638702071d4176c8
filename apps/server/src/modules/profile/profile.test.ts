import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, printPdf } from '../../kit/pdf.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let admin: Record<string, string>;

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
});

function multipart(content: Buffer, headers: Record<string, string>) {
  const boundary = '----depot-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3b82f6' } })
    .png()
    .toBuffer();

async function cashier() {
  const user = await createUser(ctx.db, { roles: ['cashier'] });
  const { token } = await login(ctx.app, user.name, user.password);
  return { ...user, headers: { ...bearer(token), 'x-localization': 'en' } };
}

describe('profile', () => {
  it('a cashier reads and edits their own profile extras', async () => {
    const me = await cashier();
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: me.headers,
      payload: {
        full_name: 'សុខ ចាន់ដារ៉ា',
        email: 'dara@example.com',
        phone: '012 345 678',
        gender: 'female',
        nationality: 'Cambodian',
        address: 'ភ្នំពេញ',
        bio: 'Cashier since 2024',
        skills: 'Khmer, English',
        emergency_contact_name: 'Sok',
        emergency_contact_relationship: 'Brother',
        emergency_contact_phone: '+855 12 000 111',
        emergency_contact_email: '',
        timezone: 'Asia/Phnom_Penh',
        location: 'Phnom Penh',
      },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe('Profile saved.');
    const got = (await ctx.app.inject({ url: '/api/profile', headers: me.headers })).json().data;
    expect(got).toMatchObject({
      id: me.id,
      name: me.name,
      full_name: 'សុខ ចាន់ដារ៉ា',
      gender: 'female',
      emergency_contact_email: null,
      timezone: 'Asia/Phnom_Penh',
      roles: [expect.objectContaining({ name: 'cashier' })],
    });
  });

  it('refuses a wrong gender and a bad email with localized messages', async () => {
    const me = await cashier();
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { ...me.headers, 'x-localization': 'kh' },
      payload: { gender: 'unknown', email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'gender']);
  });

  it('changes the password with the current one and ends the other sign-ins', async () => {
    const me = await cashier();
    const other = await login(ctx.app, me.name, me.password);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: me.headers,
      payload: { current_password: 'nope', password: 'new-password-1', password_confirmation: 'new-password-1' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const mismatch = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: me.headers,
      payload: { current_password: me.password, password: 'new-password-1', password_confirmation: 'other-pass-1' },
    });
    expect(mismatch.json().errors).toEqual({ password_confirmation: ['The password confirmation does not match.'] });

    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: me.headers,
      payload: { current_password: me.password, password: 'new-password-1', password_confirmation: 'new-password-1' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/me', headers: me.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/me', headers: bearer(other.token) })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { name: me.name, password: me.password } }))
        .statusCode,
    ).toBe(401);
    await login(ctx.app, me.name, 'new-password-1');
  });

  it('a user changes their own picture; another user’s only with users.update', async () => {
    const me = await cashier();
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${me.id}/image`,
      ...multipart(await png(900, 600), me.headers),
    });
    expect(res.statusCode).toBe(200);
    const { profile_image } = res.json().data;
    expect(profile_image).toMatch(/^\/uploads\/users\/\d+-[0-9a-f]+\.webp$/);
    const meta = await sharp(path.join(ctx.uploadsDir, profile_image.replace('/uploads/', ''))).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });
    // the session's picture (spec: the first media item's file path)
    expect((await ctx.app.inject({ url: '/api/me', headers: me.headers })).json().data.media).toEqual([
      { file_path: profile_image },
    ]);

    const other = await cashier();
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${me.id}/image`,
      ...multipart(await png(10, 10), other.headers),
    });
    expect(refused.statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/users/${me.id}/image`, headers: other.headers })).statusCode,
    ).toBe(404);

    const byAdmin = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${me.id}/image`, headers: admin });
    expect(byAdmin.json().data).toEqual({ id: me.id, profile_image: null });
    expect(fs.existsSync(path.join(ctx.uploadsDir, profile_image.replace('/uploads/', '')))).toBe(false);
  });

  it('refuses a file that is not a picture on its field', async () => {
    const me = await cashier();
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${me.id}/image`,
      ...multipart(Buffer.from('not a picture'), me.headers),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ image: ['Choose a JPEG, PNG or WebP picture.'] });
  });

  it('without Chromium the PDF is a localized 409, not a failure', async () => {
    await expect(
      printPdf('<p>x</p>', { unavailable: 'profile.pdf_unavailable', executablePath: '/nonexistent/chromium' }),
    ).rejects.toMatchObject({
      statusCode: 409,
      key: 'profile.pdf_unavailable',
    });
  });

  it.runIf(fs.existsSync(CHROMIUM_PATH))(
    'prints the profile as a PDF in the user’s language, Khmer shaped by Chromium',
    { timeout: 60_000 },
    async () => {
      const me = await cashier();
      await ctx.app.inject({
        method: 'PUT',
        url: '/api/profile',
        headers: me.headers,
        payload: {
          full_name: 'សុខ ចាន់ដារ៉ា',
          gender: 'female',
          address: 'ផ្ទះលេខ ១២ ផ្លូវព្រះស៊ីសុវត្ថិ ភ្នំពេញ',
          skills: 'គណនេយ្យ និងការលក់',
        },
      });
      const res = await ctx.app.inject({ url: '/api/profile/pdf', headers: { ...me.headers, 'x-localization': 'kh' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain('.pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      // a look at it: PROFILE_PDF_PNG=dir keeps the first page as a PNG (pdftoppm)
      const out = process.env.PROFILE_PDF_PNG;
      if (out) {
        const file = path.join(os.tmpdir(), 'profile-test.pdf');
        fs.writeFileSync(file, res.rawPayload);
        execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, path.join(out, 'profile-kh')]);
      }
    },
  );
});
