import { encodeEscPos, PAPER_DOTS, type PaperWidth, type Printer, printResult, written } from '@depot/contracts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { api } from '../http.ts';
import { NoDevice, sendLocal } from './devices.ts';
import { type PrintTarget, storedLocalPrinter } from './targets.ts';

const printAnswer = written(printResult);
/** The capture (modern-screenshot) loads when something is first printed, not with every page that can print. */
const capture = () => import('./capture.ts');

/** What a raster job may ask besides the picture: the cash drawer after a cash sale. */
export interface RasterOptions {
  /** The order whose receipt this is: a cash sale's opens the drawer (the server checks it for network printers). */
  drawerOrderId?: number | null;
  /** Whether the sale took cash: a printer on this computer kicks its drawer only then. */
  cash?: boolean;
}

/** A local printer not set up, or forgotten by the browser: the cashier chooses it again. */
export class LocalPrinterMissing extends Error {}

/**
 * The printing pipeline: render → raster → send. `print(target, document)` draws the document off
 * screen at the paper's printable width (72 mm of an 80 mm roll, 48 mm of 58 mm), captures it at
 * the printer's dots, and sends it: as a PNG to a store's network printer through the server, or
 * as ESC/POS bytes to a printer on this computer. Answers the server's message (or null).
 * Any document drawn as a picture prints this way: receipts now, a shift's X/Z reports later.
 */
export function useRasterPrint() {
  const [job, setJob] = useState<{
    node: ReactNode;
    paper: PaperWidth;
    done: (canvas: HTMLCanvasElement) => void;
    fail: (error: unknown) => void;
  } | null>(null);
  const sheet = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!job) return;
    let cancelled = false;
    const run = async () => {
      // React has drawn the document into the sheet; let the browser lay it out first
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const element = sheet.current?.firstElementChild as HTMLElement | null;
      try {
        if (!element) throw new Error('nothing to print');
        const { captureCanvas } = await capture();
        const canvas = await captureCanvas(element, PAPER_DOTS[job.paper]);
        if (!cancelled) job.done(canvas);
      } catch (error) {
        job.fail(error);
      } finally {
        if (!cancelled) setJob(null);
      }
    };
    void run();
    return () => {
      cancelled = true;
    };
  }, [job]);

  const render = (node: ReactNode, paper: PaperWidth) =>
    new Promise<HTMLCanvasElement>((done, fail) => setJob({ node, paper, done, fail }));

  /** Sends a document to a network printer or to this computer's printer. */
  async function print(
    target: Exclude<PrintTarget, { kind: 'browser' }>,
    printers: Printer[],
    document: (paper: PaperWidth) => ReactNode,
    options: RasterOptions = {},
  ): Promise<string | null> {
    if (target.kind === 'network') {
      const printer = printers.find((p) => p.id === target.printerId);
      if (!printer) throw new LocalPrinterMissing('network');
      const canvas = await render(document(printer.paper), printer.paper);
      const answer = await api(`printers/${printer.id}/print`, {
        method: 'POST',
        body: { png: await (await capture()).canvasPng(canvas), drawer_order_id: options.drawerOrderId ?? null },
        schema: printAnswer,
      });
      return answer.message;
    }
    const local = storedLocalPrinter();
    if (!local) throw new LocalPrinterMissing('local');
    const canvas = await render(document(local.paper), local.paper);
    const raster = (await capture()).canvasRaster(canvas, PAPER_DOTS[local.paper]);
    const kick = local.drawer && options.cash === true;
    try {
      await sendLocal(
        local.kind,
        local.device,
        encodeEscPos({ raster, drawer: kick ? { pin: local.pin } : null }),
        local.baudRate,
      );
    } catch (error) {
      if (error instanceof NoDevice) throw new LocalPrinterMissing(local.kind);
      throw error;
    }
    return null;
  }

  /** The cash drawer of this computer's printer, alone (a manager's button). */
  async function kickLocal(): Promise<void> {
    const local = storedLocalPrinter();
    if (!local?.drawer) throw new LocalPrinterMissing('local');
    await sendLocal(
      local.kind,
      local.device,
      encodeEscPos({ raster: null, cut: false, drawer: { pin: local.pin } }),
      local.baudRate,
    );
  }

  const portal = job
    ? createPortal(
        <div className="raster-sheet" data-paper={job.paper} ref={sheet} aria-hidden>
          {job.node}
        </div>,
        window.document.body,
      )
    : null;
  return { print, kickLocal, portal, busy: job !== null };
}
