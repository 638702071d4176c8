import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { idParams, PRODUCT_IMAGE_MAX_MB, product, translate, written } from '@depot/contracts';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { authOf } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { FieldError, notFound } from '../../http/errors.ts';
import { readUpload } from '../../http/upload.ts';
import { resourceService } from '../../kit/resource.ts';
import { products } from './products.resources.ts';

export const IMAGE_MAX_MB = PRODUCT_IMAGE_MAX_MB;
const ACCEPTED = new Set(['jpeg', 'png', 'webp']);

export interface PictureFiles {
  image_path: string | null;
  thumbnail_path: string | null;
}

/**
 * The pipeline of a product's picture (an upload's bytes, or the sample data's generated tiles):
 * a 1200 px WebP and a 256 px square thumbnail under `uploads/products/`, named after the product.
 */
export async function writePicture(uploadsDir: string, id: number, bytes: Buffer): Promise<PictureFiles> {
  await fs.mkdir(path.join(uploadsDir, 'products'), { recursive: true });
  const name = `${id}-${randomBytes(6).toString('hex')}`;
  const image = `products/${name}.webp`;
  const thumbnail = `products/${name}-thumb.webp`;
  const picture = sharp(bytes).rotate();
  await picture
    .clone()
    .resize(1200, 1200, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toFile(path.join(uploadsDir, image));
  await picture
    .clone()
    .resize(256, 256, { fit: 'cover' })
    .webp({ quality: 80 })
    .toFile(path.join(uploadsDir, thumbnail));
  return { image_path: image, thumbnail_path: thumbnail };
}

/** Sets (or clears) a live product's picture and deletes the files of the one it replaces. */
export async function replacePicture(db: Db, uploadsDir: string, id: number, files: PictureFiles): Promise<void> {
  const old = await db
    .selectFrom('products')
    .select(['image_path', 'thumbnail_path', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!old || old.deleted_at !== null) throw notFound();
  await db
    .updateTable('products')
    .set({ ...files, updated_at: now() })
    .where('id', '=', id)
    .execute();
  await removePictureFiles(uploadsDir, old);
}

/** Deletes a picture's files (a product's picture replaced, or the sample data removed). */
export async function removePictureFiles(uploadsDir: string, files: PictureFiles): Promise<void> {
  for (const file of [files.image_path, files.thumbnail_path]) {
    if (file) await fs.rm(path.join(uploadsDir, file), { force: true });
  }
}

/**
 * A product's picture: checked by what the bytes are (not the file's name or declared type), at
 * most 5 MB, stored as a 1200 px WebP and a 256 px square thumbnail under the uploads folder.
 */
export async function registerProductImages(app: FastifyInstance, db: Db, uploadsDir: string): Promise<void> {
  const dir = path.join(uploadsDir, 'products');
  await fs.mkdir(dir, { recursive: true });
  await app.register(fastifyMultipart, { limits: { fileSize: IMAGE_MAX_MB * 1024 * 1024, files: 1 } });
  await app.register(fastifyStatic, {
    root: path.resolve(uploadsDir),
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=31536000, immutable');
      res.header('x-content-type-options', 'nosniff');
    },
  });
  const service = resourceService(db, products);
  const message = (locale: 'kh' | 'en') =>
    translate('resource.updated', locale, { entity: translate('entity.product', locale) });

  const replace = (id: number, files: PictureFiles) => replacePicture(db, uploadsDir, id, files);

  app.post(
    '/api/products/:id/image',
    {
      config: { access: 'products.update' },
      schema: { tags: ['products'], params: idParams, response: { 200: written(product) } },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const actor = authOf(request);
      await service.show(actor, id);
      const { bytes } = await readUpload(request, {
        field: 'image',
        maxBytes: IMAGE_MAX_MB * 1024 * 1024,
        tooLarge: () => new FieldError({ image: [{ key: 'validation.image_size', params: { mb: IMAGE_MAX_MB } }] }),
      });
      if (!bytes) throw new FieldError({ image: [{ key: 'validation.required' }] });
      const meta = await sharp(bytes)
        .metadata()
        .catch(() => null);
      if (!meta?.format || !ACCEPTED.has(meta.format))
        throw new FieldError({ image: [{ key: 'validation.image_type' }] });

      await replace(id, await writePicture(uploadsDir, id, bytes));
      return { message: message(request.locale), data: await service.show(actor, id) };
    },
  );

  // taking a picture away is a deletion (a new picture replacing it is an update)
  app.delete(
    '/api/products/:id/image',
    {
      config: { access: 'products.delete' },
      schema: { tags: ['products'], params: idParams, response: { 200: written(product) } },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      await replace(id, { image_path: null, thumbnail_path: null });
      return { message: message(request.locale), data: await service.show(authOf(request), id) };
    },
  );
}
