import { idParams, PRODUCT_IMAGE_MAX_MB, product, translate, written } from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { say } from '../../http/locale.ts';
import { type ImageVariant, readImage, removeImages, storeImage } from '../../kit/images.ts';
import { resourceService } from '../../kit/resource.ts';
import { products } from './products.resources.ts';

export const IMAGE_MAX_MB = PRODUCT_IMAGE_MAX_MB;

export interface PictureFiles {
  image_path: string | null;
  thumbnail_path: string | null;
}

/** A product's picture: a 1200 px WebP and a 256 px square thumbnail (kit/images.ts, the one pipeline). */
const PRODUCT_VARIANTS: readonly ImageVariant[] = [
  { suffix: '', size: 1200, fit: 'inside', format: 'webp' },
  { suffix: '-thumb', size: 256, fit: 'cover', format: 'webp' },
];

/** A product's picture files from a picture's bytes (an upload, or the sample data's generated tiles). */
export async function writePicture(uploadsDir: string, id: number, bytes: Buffer): Promise<PictureFiles> {
  const [image_path, thumbnail_path] = await storeImage(uploadsDir, 'products', String(id), bytes, PRODUCT_VARIANTS);
  return { image_path: image_path ?? null, thumbnail_path: thumbnail_path ?? null };
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
  await removeImages(uploadsDir, [files.image_path, files.thumbnail_path]);
}

/** POST and DELETE /api/products/{id}/image. */
export async function registerProductImages(app: FastifyInstance, db: Db, uploadsDir: string): Promise<void> {
  const service = resourceService(db, products);
  const message = (request: FastifyRequest) =>
    say(request, 'resource.updated', { entity: translate('entity.product', request.locale) });
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
      await replace(id, await writePicture(uploadsDir, id, await readImage(request)));
      return { message: await message(request), data: await service.show(actor, id) };
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
      return { message: await message(request), data: await service.show(authOf(request), id) };
    },
  );
}
