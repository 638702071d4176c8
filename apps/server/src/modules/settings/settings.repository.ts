import type { Db } from '../../db/database.ts';

export function settingsRepository(db: Db) {
  return {
    all() {
      return db.selectFrom('settings').select(['key', 'value']).execute();
    },
  };
}
