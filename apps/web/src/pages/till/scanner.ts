import { useEffect, useRef } from 'react';

/**
 * A barcode scanner is a keyboard: it types the code within a few milliseconds and presses Enter.
 * Keys that arrive that fast, ending in Enter, anywhere on the page but in a text field, are a scan
 * (a person does not type 50 ms apart). The search box takes its own Enter; other fields keep theirs.
 */
export const SCAN_GAP_MS = 50;
export const SCAN_MIN_LENGTH = 4;

/** Where typing is the user's own: inputs, text areas, selects and editable elements. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}

export function useScanner(onScan: (code: string) => void, enabled = true) {
  const handler = useRef(onScan);
  handler.current = onScan;
  useEffect(() => {
    if (!enabled) return;
    let buffer = '';
    let last = 0;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTextField(event.target) || event.ctrlKey || event.altKey || event.metaKey) {
        buffer = '';
        return;
      }
      // when the key arrived, not when it is handled: keys that waited behind a long task (a render,
      // the local catalogue's index being built) are handled together but were typed apart only
      // as the scanner typed them
      const now = event.timeStamp > 0 ? event.timeStamp : performance.now();
      const fast = now - last <= SCAN_GAP_MS;
      last = now;
      if (event.key === 'Enter') {
        if (fast && buffer.length >= SCAN_MIN_LENGTH) {
          // The scanner's Enter must not also press the button that has the focus.
          event.preventDefault();
          event.stopPropagation();
          handler.current(buffer);
        }
        buffer = '';
        return;
      }
      if (event.key.length !== 1) return;
      buffer = fast ? buffer + event.key : event.key;
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [enabled]);
}
