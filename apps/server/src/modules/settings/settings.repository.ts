import type { Db } from '../../db/database.ts';

export function settingsRepository(db: Db) {
  return {
    all() {
      return db.selectFrom('settings').select(['key', 'value']).execute();
    },
    /** Writes each value (as JSON) under its key, adding the keys that are not there yet (in the caller's transaction). */
    async put(values: Record<string, unknown>, at: string) {
      for (const [key, value] of Object.entries(values)) {
        await db
          .insertInto('settings')
          .values({ key, value: JSON.stringify(value), updated_at: at })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: at }))
          .execute();
      }
    },
  };
}
