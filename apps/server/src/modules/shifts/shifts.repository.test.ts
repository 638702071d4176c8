import { describe, expect, it } from 'vitest';
import { readsSql } from '../../test/sql.ts';
import {
  drawerChange,
  drawerPayments,
  movementTotals,
  openShiftAt,
  openShiftOf,
  shiftMovements,
  shiftRow,
  shiftRows,
  shiftSales,
  shiftTenders,
} from './shifts.repository.ts';
import { CASH_METHODS } from './shifts.service.ts';

describe('the shifts repository’s reads', () => {
  it('send the SQL committed in shifts.repository.sql, on both databases', async () => {
    const text = await readsSql({
      shiftRows: (db) => shiftRows(db).execute(),
      shiftRow: (db) => shiftRow(db, 1),
      drawerPayments: (db) => drawerPayments(db, 1, null, CASH_METHODS),
      'drawerPayments, closed': (db) => drawerPayments(db, 1, '2026-01-01T00:00:00.000Z', CASH_METHODS),
      drawerChange: (db) => drawerChange(db, 1),
      movementTotals: (db) => movementTotals(db, 1),
      shiftSales: (db) => shiftSales(db, 1),
      shiftTenders: (db) => shiftTenders(db, 1),
      shiftMovements: (db) => shiftMovements(db, 1),
      openShiftOf: (db) => openShiftOf(db, 1),
      'openShiftOf, at a store': (db) => openShiftOf(db, 1, 2),
      openShiftAt: (db) => openShiftAt(db, '1:till 1'),
    });
    await expect(text).toMatchFileSnapshot('./shifts.repository.sql');
  });
});
