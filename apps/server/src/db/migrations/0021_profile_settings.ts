import type { Kysely } from 'kysely';

/**
 * The profile extras of spec section 3 on the user (gender, nationality, address, bio, skills, an
 * emergency contact, timezone, location). The system settings need no table: they are rows of
 * `settings`, which the seed fills with their defaults.
 */
const columns: [string, string][] = [
  ['gender', 'varchar(10)'],
  ['nationality', 'varchar(60)'],
  ['address', 'varchar(255)'],
  ['bio', 'text'],
  ['skills', 'varchar(500)'],
  ['emergency_contact_name', 'varchar(100)'],
  ['emergency_contact_relationship', 'varchar(60)'],
  ['emergency_contact_phone', 'varchar(30)'],
  ['emergency_contact_email', 'varchar(150)'],
  ['timezone', 'varchar(60)'],
  ['location', 'varchar(120)'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // one column per statement: SQLite's ALTER TABLE adds one at a time
  for (const [name, type] of columns) {
    await db.schema
      .alterTable('users')
      .addColumn(name, type as 'text')
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of columns) await db.schema.alterTable('users').dropColumn(name).execute();
}
