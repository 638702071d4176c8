import { createElement, type ReactElement, type TdHTMLAttributes } from 'react';

/**
 * Tables that fit the page. A table is as wide as its card, and wider only when its columns cannot
 * fit; then it scrolls sideways where people see it: a scrollbar drawn in the browsers that allow
 * it, and a shadow on each side that hides columns (styles.css, `.fit-table`). Cells keep to one
 * line (money, dates, codes and tags never break), except in the columns made with `wrap`, whose
 * text (a product's names, a supplier) wraps within the width given.
 */
export const fitTable = { className: 'fit-table', tableLayout: 'auto', scroll: { x: true } } as const;

/**
 * A column whose text wraps within `width` pixels. Short of room, the browser narrows it, to three
 * quarters of that at most: below, the table scrolls rather than stacking a name a word a line.
 */
export function wrap(width: number): {
  width: number;
  className: string;
  onCell: () => TdHTMLAttributes<HTMLTableCellElement>;
} {
  const least = { style: { minWidth: Math.round(width * 0.75) } };
  return { width, className: 'cell-wrap', onCell: () => least };
}

/** A column header drawn empty (a picture, a row's buttons) that screen readers still name. */
export function unseenTitle(text: string): ReactElement {
  return createElement('span', { className: 'unseen' }, text);
}
