import { type Kysely, sql } from 'kysely';

/**
 * The change as it was handed back, per drawer: `orders.change_cents` and `change_khr` are the same
 * change in either currency (the till offers both), which the cash reports summed as if both had been
 * given. From now the till sends how it was given (`change_in`) and the order keeps what left the
 * dollar and the riel drawer. Sales made before are taken as the till's usual split: whole dollars
 * in dollars, the rest (`change_cents` mod 100) in riel at the sale's rate for riel given, rounded
 * down to the sale's riel step (never more riel than the change is worth).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('change_given_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('change_given_khr', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const rate = sql`coalesce(nullif(rate_out_khr, 0), exchange_rate_khr)`;
  const rest = sql`(change_cents - (change_cents / 100) * 100)`;
  await sql`
    update orders
    set change_given_cents = (change_cents / 100) * 100,
        change_given_khr = ((${rest} * ${rate} / 100) / khr_step) * khr_step
    where change_cents > 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('change_given_khr').execute();
  await db.schema.alterTable('orders').dropColumn('change_given_cents').execute();
}
