import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '@depot/contracts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let admin: Record<string, string>;

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
});

const input = {
  system_title: 'Corner Shop',
  system_title_kh: 'ហាងកែងផ្លូវ',
  font_family: 'Battambang',
  footer_text: '© Corner Shop',
  primary_color: '#aa2233',
  secondary_color: '#123456',
  background_color: '#fafafa',
  dark_mode: false,
  store_name: 'Corner Shop Co., Ltd.',
  store_address: 'Street 271, Phnom Penh',
  store_phone: '023 555 555',
  vat_number: 'K001-123456789',
};

function multipart(content: Buffer) {
  const boundary = '----depot-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('system settings', () => {
  it('starts with a Khmer title for Khmer pages and empty business details', async () => {
    const res = await ctx.app.inject({ url: '/api/settings/public' });
    expect(res.json().data).toMatchObject({
      system_title: 'Sales Management System',
      system_title_kh: 'ប្រព័ន្ធគ្រប់គ្រងការលក់',
      store_name: '',
      vat_number: '',
    });
  });

  it('an administrator saves them and everyone reads them at once', async () => {
    const res = await ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: input });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('System settings saved.');
    const pub = (await ctx.app.inject({ url: '/api/settings/public' })).json().data;
    expect(pub).toMatchObject(input);
    expect((await ctx.app.inject({ url: '/api/settings', headers: admin })).json().data).toEqual(pub);
    // the audit trail has what changed, before and after, and who changed it
    const trail = (await ctx.app.inject({ url: '/api/audit?filter[action]=settings.system', headers: admin })).json()
      .data;
    expect(trail[0]).toMatchObject({ action: 'settings.system', user_name: 'admin' });
    expect(trail[0].after).toMatchObject({ system_title: input.system_title });
    expect(trail[0].before.system_title).not.toBe(input.system_title);
  });

  it('refuses a colour that is no colour and a font that is not bundled, in Khmer', async () => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { ...admin, 'x-localization': 'kh' },
      payload: { ...input, primary_color: 'red', font_family: 'Comic Sans', system_title_kh: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['font_family', 'primary_color', 'system_title_kh']);
    expect(res.json().message).not.toMatch(/[a-z]{4}/);
  });

  it('a cashier cannot change them', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'] });
    const { token } = await login(ctx.app, user.name, user.password);
    const res = await ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(token), payload: input });
    expect(res.statusCode).toBe(403);
  });

  it('uploads a logo and a favicon, re-encoded, and removes them', async () => {
    const picture = await sharp({ create: { width: 800, height: 400, channels: 4, background: '#16a34a' } })
      .png()
      .toBuffer();
    const logo = await ctx.app.inject({ method: 'POST', url: '/api/settings/logo', ...multipart(picture) });
    expect(logo.statusCode).toBe(200);
    const { logo_url } = logo.json().data;
    expect(logo_url).toMatch(/^\/uploads\/settings\/logo-[0-9a-f]+\.webp$/);
    expect(await sharp(path.join(ctx.uploadsDir, logo_url.replace('/uploads/', ''))).metadata()).toMatchObject({
      format: 'webp',
      width: 512,
      height: 256,
    });
    const served = await ctx.app.inject({ url: logo_url });
    expect(served.statusCode).toBe(200);

    const favicon = await ctx.app.inject({ method: 'POST', url: '/api/settings/favicon', ...multipart(picture) });
    const { favicon_url } = favicon.json().data;
    expect(favicon_url).toMatch(/^\/uploads\/settings\/favicon-[0-9a-f]+\.png$/);
    expect(await sharp(path.join(ctx.uploadsDir, favicon_url.replace('/uploads/', ''))).metadata()).toMatchObject({
      format: 'png',
      width: 64,
      height: 64,
    });

    const removed = await ctx.app.inject({ method: 'DELETE', url: '/api/settings/logo', headers: admin });
    expect(removed.json().data.logo_url).toBeNull();
    expect(fs.existsSync(path.join(ctx.uploadsDir, logo_url.replace('/uploads/', '')))).toBe(false);
    expect((await ctx.app.inject({ url: '/api/settings/public' })).json().data.favicon_url).toBe(favicon_url);
  });

  it('a stored value that no longer fits reads as its default', async () => {
    await ctx.db.updateTable('settings').set({ value: '"not a colour"' }).where('key', '=', 'primary_color').execute();
    const pub = (await ctx.app.inject({ url: '/api/settings/public' })).json().data;
    expect(pub.primary_color).toBe(DEFAULT_SETTINGS.primary_color);
  });
});

describe('system settings: Khmer numerals', () => {
  it('Khmer numerals: off until an administrator turns them on; left out of a save, unchanged; not a yes/no, refused in the reader’s language', async () => {
    expect((await ctx.app.inject({ url: '/api/settings/public' })).json().data.khmer_numerals).toBe(false);
    const on = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...input, khmer_numerals: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.khmer_numerals).toBe(true);
    await ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: input });
    expect((await ctx.app.inject({ url: '/api/settings/public' })).json().data.khmer_numerals).toBe(true);
    const bad = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { ...admin, 'x-localization': 'kh' },
      payload: { ...input, khmer_numerals: '១' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.khmer_numerals[0]).toMatch(/[\u1780-\u17ff]/);
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...input, khmer_numerals: false },
    });
  });
});

describe('server messages in Khmer numerals', () => {
  const setNumeralsSetting = (on: boolean) =>
    ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: { ...input, khmer_numerals: on } });
  const rate = (locale: 'kh' | 'en', payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/exchange-rates',
      headers: { ...admin, 'x-localization': locale },
      payload,
    });

  it('follow the setting in Khmer answers: the figures interpolated and the limits of a refusal; English stays Latin', async () => {
    expect((await setNumeralsSetting(true)).statusCode).toBe(200);
    try {
      const kh = await rate('kh', { rate_khr: 4125 });
      expect(kh.statusCode).toBe(201);
      expect(kh.json().message).toBe('បានធ្វើបច្ចុប្បន្នភាពអត្រាប្ដូរប្រាក់៖ ៤១២៥ រៀលក្នុងមួយដុល្លារ។');
      const en = await rate('en', { rate_khr: 4130 });
      expect(en.json().message).toBe('Exchange rate updated: 4130 riel per dollar.');
      const refused = await rate('kh', { rate_khr: 4125, note: 'x'.repeat(256) });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.note).toEqual(['មិនត្រូវលើសពី ២៥៥ តួអក្សរ។']);
    } finally {
      await setNumeralsSetting(false);
    }
    // off: Latin digits in Khmer too
    expect((await rate('kh', { rate_khr: 4125 })).json().message).toContain(' 4125 ');
  });
});
