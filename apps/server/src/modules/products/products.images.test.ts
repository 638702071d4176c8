import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';
import { IMAGE_MAX_MB } from './products.images.ts';

const ctx = useTestApp();
let headers: Record<string, string>;
let productId: number;

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const post = async (url: string, payload: object) =>
    (await ctx.app.inject({ method: 'POST', url, headers, payload })).json().data.id as number;
  const category = await post('/api/categories', { name_en: 'Snacks', name_kh: 'នំចំណី' });
  const unit = await post('/api/units', { name_en: 'Bag', name_kh: 'ថង់', short_name: 'bag' });
  productId = await post('/api/products', {
    name_en: 'Rice crackers',
    name_kh: 'នំអង្ករ',
    sku: 'RC-1',
    category_id: category,
    unit_id: unit,
    price_usd_cents: 50,
  });
});

function multipart(filename: string, content: Buffer, type: string) {
  const boundary = '----depot-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (filename: string, content: Buffer, type = 'image/png') =>
  ctx.app.inject({ method: 'POST', url: `/api/products/${productId}/image`, ...multipart(filename, content, type) });

describe('product pictures', () => {
  it('stores a picture as WebP with a 256 px thumbnail, served from /uploads/', async () => {
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#16a34a' } })
      .png()
      .toBuffer();
    const res = await upload('photo.png', png);
    expect(res.statusCode).toBe(200);
    const { data, message } = res.json();
    expect(message).toBe('Product updated.');
    expect(data.image_url).toMatch(/^\/uploads\/products\/\d+-[0-9a-f]+\.webp$/);
    const image = await sharp(path.join(ctx.uploadsDir, data.image_url.replace('/uploads/', ''))).metadata();
    expect(image).toMatchObject({ format: 'webp', width: 1200, height: 675 });
    const thumb = await ctx.app.inject({ method: 'GET', url: data.thumbnail_url });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

    // a new picture replaces the old files
    const again = (await upload('photo2.png', png)).json().data;
    expect(fs.existsSync(path.join(ctx.uploadsDir, data.image_url.replace('/uploads/', '')))).toBe(false);
    expect(again.image_url).not.toBe(data.image_url);
  });

  it('judges a file by its bytes, not by its name, and keeps the old picture on refusal', async () => {
    const before = (await ctx.app.inject({ method: 'GET', url: `/api/products/${productId}`, headers })).json().data;
    const res = await upload('totally-a-picture.png', Buffer.from('<script>alert(1)</script>'));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ image: ['Choose a JPEG, PNG or WebP picture.'] });
    const after = (await ctx.app.inject({ method: 'GET', url: `/api/products/${productId}`, headers })).json().data;
    expect(after.image_url).toBe(before.image_url);
  });

  it(`refuses a picture over ${IMAGE_MAX_MB} MB`, async () => {
    const big = Buffer.alloc(IMAGE_MAX_MB * 1024 * 1024 + 10, 1);
    const res = await upload('big.jpg', big, 'image/jpeg');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ image: [`The picture is larger than ${IMAGE_MAX_MB} MB.`] });
  });

  it('removes the picture', async () => {
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/products/${productId}/image`, headers });
    expect(res.json().data).toMatchObject({ image_url: null, thumbnail_url: null });
    expect(fs.readdirSync(path.join(ctx.uploadsDir, 'products'))).toEqual([]);
  });
});
