import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type LastWrite, partsOf } from './later.ts';

const write = (label: string, parameters: number, name?: string): LastWrite => ({
  query: CompiledQuery.raw(
    label,
    Array.from({ length: parameters }, () => 0),
  ),
  ...(name ? { name } : {}),
});
const labels = (parts: LastWrite[][]) => parts.map((part) => part.map((w) => w.query.sql));

/**
 * A sale's last writes cut into PostgreSQL statements (PostgreSQL takes 65,535 parameters at most):
 * the counters' upsert (`numbers`) and the writes after it, which read its RETURNING by name, are
 * never parted (a cut between them was "relation numbers does not exist": a 500 for a large cart).
 */
describe('partsOf', () => {
  it('keeps everything in one statement under the limit', () => {
    expect(labels(partsOf([write('a', 10), write('n', 2, 'numbers'), write('b', 5)], 100))).toEqual([['a', 'n', 'b']]);
  });

  it('cuts before the limit', () => {
    expect(labels(partsOf([write('a', 60), write('b', 60), write('c', 10)], 100))).toEqual([['a'], ['b', 'c']]);
  });

  it('never parts a named write from the writes after it', () => {
    // the named group is 2 + 30 + 30 = 62: it does not fit after "a" (50), so it starts the next one
    const parts = partsOf([write('a', 50), write('n', 2, 'numbers'), write('b', 30), write('c', 30)], 100);
    expect(labels(parts)).toEqual([['a'], ['n', 'b', 'c']]);
  });

  it('a named group larger than the limit stays whole', () => {
    const parts = partsOf([write('a', 10), write('n', 2, 'numbers'), write('b', 90), write('c', 90)], 100);
    expect(labels(parts)).toEqual([['a'], ['n', 'b', 'c']]);
  });
});
