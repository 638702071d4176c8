import { useEffect, useRef } from 'react';

/** A key to press, shown on the button it presses ("Pay F9"). */
export function Key({ children }: { children: string }) {
  return <kbd className="pos-key">{children}</kbd>;
}

/**
 * Function keys of the till (F2 search, F4 quantity, F8 hold, F9 pay), wherever the focus is: the
 * browser's own use of them gives way. Off while a dialog is open (Escape closes it: antd's own).
 */
export function useFunctionKeys(keys: Partial<Record<'F2' | 'F4' | 'F8' | 'F9', () => void>>, enabled = true) {
  const current = useRef(keys);
  current.current = keys;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const action = current.current[event.key as 'F2' | 'F4' | 'F8' | 'F9'];
      if (!action || event.ctrlKey || event.altKey || event.metaKey) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
