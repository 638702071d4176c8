import type { MessageKey, MessageParams } from '@depot/contracts';
import { encodeEscPos, PAPER_DOTS, type PrintResult, type printJobInput, type Raster } from '@depot/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { type NetworkGuard, NetworkRefused, NetworkUnreachable, portsText } from '../../http/network-guard.ts';
import { assertPrinterCovered } from '../../policies/printers.ts';
import { sendToPrinter } from './printer.transport.ts';
import { BadImage, pngToRaster, rowsToRaster } from './raster.ts';

/** A cash sale's receipt opens the drawer within this time of the payment; later, a manager opens it. */
export const DRAWER_WINDOW_MS = 10 * 60_000;

type Job = z.output<typeof printJobInput>;

/** What a printer is told when the network guard refuses its address or its port (saved or used). */
export function printerRefusal(error: NetworkRefused, guard: NetworkGuard): { key: MessageKey; params: MessageParams } {
  return error.reason === 'port'
    ? { key: 'printer.port', params: { port: String(error.port), ports: portsText(guard.ports) } }
    : { key: 'printer.not_local', params: { host: error.host } };
}

/**
 * Printing on a store's network printers: "print this picture on this printer", for receipts
 * today and for any document that is drawn as a picture (a shift's X and Z reports later). The
 * printer must be one of a store the user covers (policies/printers.ts), active, and
 * on the local network; the server makes the ESC/POS bytes itself.
 */
export function printingService(db: Db, options: { timeoutMs: number; guard: NetworkGuard }) {
  async function printerFor(id: number, auth: AuthContext) {
    const row = await db
      .selectFrom('printers')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound();
    // a printer of a store the user does not cover does not exist for them (the list's scope too)
    assertPrinterCovered(auth, row);
    if (row.status !== 'active') throw new AppError(409, 'printer.inactive', { name: row.name });
    return row;
  }

  /** Sends the bytes of a raster to the printer and says what was printed. */
  async function sendRaster(
    row: { id: number; name: string; host: string; port: number },
    raster: Raster,
    bytes: Uint8Array,
    drawerOpened: boolean,
  ): Promise<{ name: string; result: PrintResult }> {
    await send(row, bytes);
    return {
      name: row.name,
      result: {
        printer_id: row.id,
        bytes: bytes.length,
        width: raster.width,
        height: raster.height,
        drawer_opened: drawerOpened,
      },
    };
  }

  async function send(row: { name: string; host: string; port: number }, bytes: Uint8Array) {
    try {
      await sendToPrinter(options.guard, row.host, row.port, bytes, options.timeoutMs);
    } catch (error) {
      // refused before any connection: a printer saved before the guard, or a name that now resolves elsewhere
      if (error instanceof NetworkRefused) {
        const { key, params } = printerRefusal(error, options.guard);
        throw new AppError(422, key, params);
      }
      // not answering, refusing the connection or closing it: one answer, whatever the cause
      if (error instanceof NetworkUnreachable) throw new AppError(504, 'printer.unreachable', { name: row.name });
      throw error;
    }
  }

  /** Whether this user took cash for the order at this printer's store in the last minutes. */
  async function cashJustTaken(orderId: number, storeId: number, userId: number): Promise<boolean> {
    const payment = await db
      .selectFrom('order_payments')
      .innerJoin('orders', 'orders.id', 'order_payments.order_id')
      .select('order_payments.created_at')
      .where('order_payments.order_id', '=', orderId)
      .where('orders.store_id', '=', storeId)
      .where('order_payments.kind', '=', 'payment')
      .where('order_payments.method', 'in', ['cash_usd', 'cash_khr'])
      .where('order_payments.received_by', '=', userId)
      .orderBy('order_payments.id', 'desc')
      .executeTakeFirst();
    return payment !== undefined && Date.now() - new Date(payment.created_at).getTime() <= DRAWER_WINDOW_MS;
  }

  return {
    async print(id: number, job: Job, auth: AuthContext): Promise<{ name: string; result: PrintResult }> {
      const row = await printerFor(id, auth);
      const dots = PAPER_DOTS[row.paper];
      let raster: Raster;
      try {
        raster = job.png
          ? await pngToRaster(Buffer.from(job.png, 'base64'), dots)
          : rowsToRaster(job.raster!.width, job.raster!.height, Buffer.from(job.raster!.data, 'base64'), dots);
      } catch (error) {
        if (error instanceof BadImage || error instanceof RangeError) {
          throw new FieldError({ [job.png ? 'png' : 'raster']: [{ key: 'printer.bad_image' }] });
        }
        throw error;
      }
      const kick =
        Number(row.drawer_kick) === 1 &&
        job.drawer_order_id != null &&
        (await cashJustTaken(job.drawer_order_id, row.store_id, auth.userId));
      const bytes = encodeEscPos({ raster, cut: job.cut, drawer: kick ? { pin: row.drawer_pin } : null });
      return sendRaster(row, raster, bytes, kick);
    },

    /**
     * A picture the server drew (labels, modules/labels) on a printer of a store the user covers:
     * the same raster and ESC/POS as a till's job, no drawer. `paperDots` tells the caller the width
     * to draw at before it draws.
     */
    async printPicture(
      id: number,
      draw: (paperDots: number) => Promise<Buffer>,
      auth: AuthContext,
    ): Promise<{ name: string; result: PrintResult }> {
      const row = await printerFor(id, auth);
      const dots = PAPER_DOTS[row.paper];
      const raster = await pngToRaster(await draw(dots), dots);
      const bytes = encodeEscPos({ raster, cut: true, drawer: null });
      return sendRaster(row, raster, bytes, false);
    },

    /** A manager's "open the drawer" (change for a customer, a count): the kick alone. */
    async openDrawer(id: number, auth: AuthContext): Promise<{ name: string }> {
      const row = await printerFor(id, auth);
      if (Number(row.drawer_kick) !== 1) throw new AppError(409, 'printer.no_drawer', { name: row.name });
      await send(row, encodeEscPos({ raster: null, cut: false, drawer: { pin: row.drawer_pin } }));
      return { name: row.name };
    },
  };
}
