import { idParams, PRODUCT_IMAGE_MAX_MB, product, translate, written } from '@depot/contracts';
import type { FastifyInstance } from 'fastify';
import { authOf } from '../../access/access.ts';
import { type Db, now } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { readImage, removeImages, storeImage } from '../../kit/images.ts';
import { resourceService } from '../../kit/resource.ts';
import { products } from './products.resources.ts';

export const IMAGE_MAX_MB = PRODUCT_IMAGE_MAX_MB;

/**
 * A product's picture (the picture pipeline of kit/images.ts): a 1200 px WebP and a 256 px
 * square thumbnail under the uploads folder.
 */
export async function registerProductImages(app: FastifyInstance, db: Db, uploadsDir: string): Promise<void> {
  const service = resourceService(db, products);
  const message = (locale: 'kh' | 'en') =>
    translate('resource.updated', locale, { entity: translate('entity.product', locale) });

  async function replace(id: number, files: { image_path: string | null; thumbnail_path: string | null }) {
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
    await removeImages(uploadsDir, [old.image_path, old.thumbnail_path]);
  }

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
      const bytes = await readImage(request);
      const [image, thumbnail] = await storeImage(uploadsDir, 'products', String(id), bytes, [
        { suffix: '', size: 1200, fit: 'inside', format: 'webp' },
        { suffix: '-thumb', size: 256, fit: 'cover', format: 'webp' },
      ]);
      await replace(id, { image_path: image, thumbnail_path: thumbnail });
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
