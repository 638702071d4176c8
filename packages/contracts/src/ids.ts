/**
 * The largest record id (PostgreSQL's `integer`): an id past it names no record, and is refused by
 * the schema like any other id that is not valid, instead of reaching the database.
 */
export const MAX_ID = 2_147_483_647;
