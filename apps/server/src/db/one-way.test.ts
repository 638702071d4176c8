import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each of these is done one way, by one helper: a second way drifts (a transaction that skips the
 * events, the rollups or the idempotency claim; a dialect test that misses a handle; a stock write
 * the ledger's audit and rollups do not follow). Tests may
 * open raw transactions of their own (a competing writer holding locks), so only the server's
 * source is read, not its tests.
 */
const src = path.resolve(import.meta.dirname, '..');

function sources(): { file: string; text: string }[] {
  return (fs.readdirSync(src, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith(`test${path.sep}`))
    .map((file) => ({ file: file.split(path.sep).join('/'), text: fs.readFileSync(path.join(src, file), 'utf8') }));
}

function using(pattern: RegExp, skip = (_file: string) => false): string[] {
  return sources()
    .filter(({ file, text }) => !skip(file) && pattern.test(text))
    .map(({ file }) => file)
    .sort();
}

describe('one way', () => {
  it('opens a transaction only through transaction() (db/transaction.ts)', () => {
    expect(using(/\.transaction\(\)/)).toEqual(['db/transaction.ts']);
  });

  it('asks the dialect only through isPostgres and dialectOf (db/database.ts)', () => {
    expect(using(/\b(PostgresAdapter|SqliteAdapter)\b|startsWith\('(sqlite|postgres)/)).toEqual(['db/database.ts']);
  });

  it('writes stock levels, movements and valuations only through the ledger (modules/stock/ledger.ts)', () => {
    const write =
      /(insertInto|updateTable|deleteFrom)\(\s*'stock_(levels|movements|valuations)'|\b(insert into|update|delete from)\s+stock_(levels|movements|valuations)\b/;
    // a migration's backfill is the schema's business, run once
    expect(using(write, (file) => file.startsWith('db/migrations/'))).toEqual(['modules/stock/ledger.ts']);
  });
});
