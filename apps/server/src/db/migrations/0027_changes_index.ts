import type { Kysely } from 'kysely';

/**
 * The till's catalogue sync reads the products changed since a cursor in (updated_at, id) order
 * (`GET /api/products/changes`): an index in that order, so a page is a range scan, not a sort of
 * the catalogue. updated_at is already written by every write of a product (the kit, the import,
 * a picture); a deletion sets it with deleted_at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('products_updated_at_id').on('products').columns(['updated_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('products_updated_at_id').execute();
}
