import { decodeEscPos, type Raster } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { choose, listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { orderRow, SELLING, tillLookups } from '../../test/sales.ts';

// The browser's drawing of the receipt (modern-screenshot) needs a real layout engine: the test
// stands in a known picture for it, and checks what reaches the printer.
const picture: Raster = {
  width: 576,
  height: 3,
  bits: new Uint8Array(576 * 3).map((_, i) => (i % 576 < 100 ? 1 : 0)),
};
vi.mock('./capture.ts', () => ({
  captureCanvas: vi.fn(async () => ({}) as HTMLCanvasElement),
  canvasRaster: vi.fn(() => picture),
  canvasPng: vi.fn(async () => 'iVBORw0KGgo='),
}));

/** A USB-serial receipt printer: what the page writes to it is kept. */
function serialPrinter() {
  const written: Uint8Array[] = [];
  const port = {
    getInfo: () => ({ usbVendorId: 0x0416, usbProductId: 0x5011 }),
    open: vi.fn(async () => {}),
    close: vi.fn(async () => {}),
    writable: {
      getWriter: () => ({ write: async (chunk: Uint8Array) => void written.push(chunk.slice()), releaseLock() {} }),
    },
  };
  const serial = { requestPort: vi.fn(async () => port), getPorts: vi.fn(async () => [port]) };
  return { serial, port, bytes: () => new Uint8Array(written.flatMap((c) => [...c])) };
}

const cash = orderRow(9, {
  payments: [
    {
      id: 2,
      kind: 'payment',
      method: 'cash_usd',
      amount: 600,
      amount_cents: 600,
      transaction_id: null,
      received_by_name: 'Sok Dara',
      created_at: '2026-03-01T03:00:00.000Z',
    },
  ],
});

function api() {
  return mockFetch({
    ...tillLookups(),
    'GET orders': () => ({ body: listAnswer([cash]) }),
    'GET orders/9': () => ({ body: { data: cash } }),
    'GET printers': () => ({ body: listAnswer([]) }),
  });
}

async function openReceipt() {
  signedIn({ permissions: [...SELLING, 'printers.list', 'printers.generate'] });
  const view = renderApp('/en/orders?view=9');
  // the first screen of a file loads its lazy chunks: on a busy machine that takes seconds
  await view.user.click(await screen.findByTestId('order-receipt', {}, { timeout: 15_000 }));
  const controls = await screen.findByTestId('print-controls');
  return { ...view, controls };
}

describe('printing a receipt on a printer attached to the till', { timeout: 40_000 }, () => {
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal('requestAnimationFrame', (next: () => void) => setTimeout(next, 0));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serial');
  });

  it('sets the printer up once (Web Serial), then sends it the receipt as ESC/POS raster', async () => {
    const printer = serialPrinter();
    Object.defineProperty(navigator, 'serial', { value: printer.serial, configurable: true });
    api();
    const { user, controls } = await openReceipt();
    await choose(user, within(controls).getByRole('combobox', { name: 'Print on' }), 'Printer on this computer (USB)');
    const setup = await screen.findByTestId('local-printer-setup');
    await user.click(within(setup).getByText('Serial (USB serial)'));
    await user.click(screen.getByTestId('choose-device'));
    await waitFor(() => expect(screen.queryByTestId('local-printer-setup')).toBeNull());
    expect(printer.serial.requestPort).toHaveBeenCalledTimes(1);
    // remembered on this computer
    expect(JSON.parse(localStorage.getItem('depot.local_printer') ?? '{}')).toMatchObject({
      kind: 'serial',
      device: '1046:20497',
      paper: '80',
    });

    await user.click(within(controls).getByTestId('print-now'));
    await waitFor(() => expect(printer.port.close).toHaveBeenCalled());
    expect(printer.port.open).toHaveBeenCalledWith({ baudRate: 9600 });
    const job = decodeEscPos(printer.bytes());
    expect(job.initialized).toBe(true);
    expect(job.raster).toEqual(picture);
    expect(job.cuts).toBe(1);
    // a reprint from the order's details never opens the drawer
    expect(job.kicks).toEqual([]);
    expect(screen.queryByTestId('print-problem')).toBeNull();
  });

  it('says so when this browser cannot reach a printer on the computer', async () => {
    api();
    const { user, controls } = await openReceipt();
    await choose(user, within(controls).getByRole('combobox', { name: 'Print on' }), 'Printer on this computer (USB)');
    const setup = await screen.findByTestId('local-printer-setup');
    expect(within(setup).getByTestId('local-unsupported').textContent).toContain('use Chrome or Edge');
    expect(screen.getByTestId('choose-device').closest('button')?.disabled).toBe(true);
  });

  it('asks for the printer again when the browser has forgotten it', async () => {
    const printer = serialPrinter();
    printer.serial.getPorts.mockResolvedValue([]);
    Object.defineProperty(navigator, 'serial', { value: printer.serial, configurable: true });
    localStorage.setItem(
      'depot.local_printer',
      JSON.stringify({ kind: 'serial', device: '1046:20497', paper: '58', drawer: true, pin: 2, baudRate: 9600 }),
    );
    localStorage.setItem('depot.print_target', JSON.stringify({ kind: 'local' }));
    api();
    const { user, controls } = await openReceipt();
    await user.click(within(controls).getByTestId('print-now'));
    expect((await screen.findByTestId('print-problem')).textContent).toContain('choose it again');
    expect(await screen.findByTestId('local-printer-setup')).toBeTruthy();
  });
});
