import { type RefObject, useEffect } from 'react';

/**
 * antd's Transfer draws a checkbox on each row and on each list's header with no accessible name
 * (axe: critical `label`) and has no prop to give one. This names each row's checkbox by the row's
 * text and each header's by `headerName(list)`, again whenever the rows change (a search, a move).
 */
export function useTransferNames(ref: RefObject<HTMLElement | null>, headerName: (list: number) => string) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const name = () => {
      root.querySelectorAll('.ant-transfer-section').forEach((list, index) => {
        list
          .querySelector('.ant-transfer-list-header input[type="checkbox"]')
          ?.setAttribute('aria-label', headerName(index));
        for (const row of list.querySelectorAll('li')) {
          row.querySelector('input[type="checkbox"]')?.setAttribute('aria-label', row.textContent?.trim() ?? '');
        }
      });
    };
    name();
    // rows only: the names written above are attributes, which this does not watch
    const observer = new MutationObserver(name);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  });
}
