import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScanner } from './scanner.ts';

/** A key as the browser hands it over: typed at `at` (its timeStamp), handled whenever. */
function key(key: string, at: number): void {
  const event = new KeyboardEvent('keydown', { key, bubbles: true });
  Object.defineProperty(event, 'timeStamp', { value: at });
  window.dispatchEvent(event);
}

describe('the scanner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a scan whose keys waited behind a long task: typed 5 ms apart, handled 200 ms apart', () => {
    const scanned = vi.fn();
    renderHook(() => useScanner(scanned));
    let handled = 1000;
    // the page was busy between the keys: they are handled far apart
    vi.spyOn(performance, 'now').mockImplementation(() => {
      handled += 200;
      return handled;
    });
    for (const [i, digit] of [...'8850001'].entries()) key(digit, 100 + i * 5);
    key('Enter', 140);
    expect(scanned).toHaveBeenCalledWith('8850001');
  });

  it('does not take a person typing for a scan', () => {
    const scanned = vi.fn();
    renderHook(() => useScanner(scanned));
    for (const [i, digit] of [...'8850001'].entries()) key(digit, 100 + i * 150);
    key('Enter', 100 + 7 * 150);
    expect(scanned).not.toHaveBeenCalled();
  });
});
