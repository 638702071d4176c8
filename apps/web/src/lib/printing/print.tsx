import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { i18n } from '../../i18n.ts';
import { formatDateTime } from '../dates.ts';
import { documentReady } from './ready.ts';

/**
 * Printing: receipts for 80 mm and 58 mm roll printers, and the A4 tax invoice. Not a route of its
 * own (the screen registry lists no such path, and a till must print without leaving the sale): the
 * document is drawn into a sheet beside the app, `@page` sized for its paper, and the browser's
 * print prints that sheet alone (styles.css hides the rest). The same document shows on screen in
 * the dialog first. Receipts and invoices are in Khmer with English beneath, whatever the page's language.
 */

export type Paper = '80' | '58' | 'a4';

export const PAPER_KEY = 'depot.receipt_paper';

export function storedPaper(): '80' | '58' {
  try {
    return localStorage.getItem(PAPER_KEY) === '58' ? '58' : '80';
  } catch {
    return '80';
  }
}

/** One page as long as the receipt (a roll has no page length); A4 with margins for the invoice. */
function pageRule(paper: Paper, heightMm: number): string {
  if (paper === 'a4') return '@page { size: A4; margin: 12mm; }';
  return `@page { size: ${paper}mm ${Math.max(60, Math.ceil(heightMm) + 4)}mm; margin: 0; }`;
}

/** Draws the document into the print sheet, then opens the browser's print for it. */
export function usePrint() {
  const [job, setJob] = useState<{ node: ReactNode; paper: Paper } | null>(null);
  const sheet = useRef<HTMLDivElement>(null);
  const [page, setPage] = useState('');

  useEffect(() => {
    if (!job) return;
    let cancelled = false;
    const run = async () => {
      const element = sheet.current;
      if (!element) return;
      // The logo and the Khmer font must be there before the page is laid out for the printer.
      await documentReady(element);
      if (cancelled) return;
      setPage(pageRule(job.paper, (element.scrollHeight * 25.4) / 96));
      // the rule is in the page once React has drawn it
      await new Promise((resolve) => setTimeout(resolve, 0));
      try {
        window.print();
      } finally {
        if (!cancelled) setJob(null);
      }
    };
    void run();
    return () => {
      cancelled = true;
    };
  }, [job]);

  const portal = job
    ? createPortal(
        <div className="print-sheet" data-paper={job.paper} ref={sheet} data-testid="print-sheet">
          <style>{page}</style>
          {job.node}
        </div>,
        document.body,
      )
    : null;
  return { print: (node: ReactNode, paper: Paper) => setJob({ node, paper }), portal, printing: job !== null };
}

/** Both catalogues, whatever the page's language: the documents are bilingual. */
export function useBothLanguages(): boolean {
  const [ready, setReady] = useState(
    () => i18n.hasResourceBundle('kh', 'translation') && i18n.hasResourceBundle('en', 'translation'),
  );
  useEffect(() => {
    if (ready) return;
    i18n.loadLanguages(['kh', 'en']).then(
      () => setReady(true),
      () => setReady(true),
    );
  }, [ready]);
  return ready;
}

/** 1 មីនា 2026 09:30: the one date helper, in Khmer (the documents' first language). */
export function printedDate(value: string): string {
  return formatDateTime(value, 'kh');
}
