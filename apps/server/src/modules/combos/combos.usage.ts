import type { MessageKey } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * How many live combos have a product among their items: a product's deletion is refused while
 * any do (products.resources.ts `dependents`). A file of its own, importing nothing of the combos
 * module, so the products definition can use it without an import cycle.
 */
export async function combosUsing(db: Db, productId: number): Promise<{ entity: MessageKey; count: number }> {
  const row = await db
    .selectFrom('combos')
    .select(sql<number>`count(*)`.as('n'))
    .where('combos.deleted_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('combo_items')
          .select(sql`1`.as('one'))
          .whereRef('combo_items.combo_id', '=', 'combos.id')
          .where('combo_items.product_id', '=', productId),
      ),
    )
    .executeTakeFirstOrThrow();
  return { entity: 'entity.combos', count: Number(row.n) };
}
