import net from 'node:net';
import zlib from 'node:zlib';
import {
  decodeEscPos,
  encodeKhqr,
  KHQR_QR_ERROR_CORRECTION,
  PAPER_DOTS,
  packRows,
  type Raster,
} from '@depot/contracts';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkGuard } from '../../http/network-guard.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { fakePrinter, qrMatch, SAMPLE_KHQR, saveRaster } from '../../test/printing.ts';
import { sellableProduct } from '../../test/selling.ts';
import { sendToPrinter } from './printer.transport.ts';
import { pngToRaster } from './raster.ts';

// the fake printers listen on 127.0.0.1: the guard allows the loopback and any port for this suite
// alone (printers.network.test.ts holds the server's own configuration to refusing them)
const ctx = useTestApp({ printerNetwork: { allowLoopback: true, ports: [[1, 65535]] } });
const printer = fakePrinter();
let port: number;
let headers: Record<string, string>;
let cashier: Record<string, string>;
let cashierId: number;
let shop: Awaited<ReturnType<typeof sellableProduct>>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = headers) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

const payload = encodeKhqr({ ...SAMPLE_KHQR, amount: 2000, bill_number: 'ORD-2026-000007' });

/** A receipt-like PNG wider than the paper: text, a rule, and the KHQR (as the browser would draw them). */
async function receiptPng(): Promise<Buffer> {
  const qr = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: KHQR_QR_ERROR_CORRECTION, margin: 2 });
  const qrImage = await sharp(Buffer.from(qr)).resize(440, 440, { kernel: 'nearest' }).png().toBuffer();
  const text = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1100">
      <rect width="800" height="1100" fill="#fff"/>
      <text x="400" y="80" font-size="56" font-family="sans-serif" font-weight="bold" text-anchor="middle">DEPOT RECEIPT</text>
      <text x="40" y="170" font-size="40" font-family="sans-serif">Soap x 2</text>
      <text x="760" y="170" font-size="40" font-family="sans-serif" text-anchor="end">$25.00</text>
      <line x1="40" y1="210" x2="760" y2="210" stroke="#000" stroke-width="4" stroke-dasharray="12 8"/>
      <text x="40" y="280" font-size="48" font-family="sans-serif" font-weight="bold">TOTAL</text>
      <text x="760" y="280" font-size="48" font-family="sans-serif" font-weight="bold" text-anchor="end">$25.00</text>
    </svg>`,
  );
  return sharp(text)
    .composite([{ input: qrImage, left: 180, top: 360 }])
    .png()
    .toBuffer();
}

beforeAll(async () => {
  port = await printer.listen();
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const user = await createUser(ctx.db, { roles: ['cashier'] });
  cashierId = user.id;
  cashier = { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
  shop = await sellableProduct(ctx.app, ctx.db, headers, 1250);
  const made = await send('POST', '/api/printers', {
    store_id: shop.storeId,
    name: 'Front till',
    host: '127.0.0.1',
    port,
    paper: '80',
    drawer_kick: true,
    drawer_pin: 2,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  ids.printer = made.body.data.id;
});
afterAll(() => printer.close());

describe('printers of a store', () => {
  it('are set up by whoever may update stores, listed by the till', async () => {
    const refused = await send(
      'POST',
      '/api/printers',
      { store_id: shop.storeId, name: 'Mine', host: '127.0.0.1' },
      cashier,
    );
    expect(refused.status).toBe(403);
    const list = await send('GET', `/api/printers?filter[store_id]=${shop.storeId}`, undefined, cashier);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        name: 'Front till',
        host: '127.0.0.1',
        port,
        paper: '80',
        drawer_kick: true,
        drawer_pin: 2,
      }),
    ]);
  });

  it('check the address, port and paper', async () => {
    const bad = await send('POST', '/api/printers', {
      store_id: shop.storeId,
      name: 'Bar',
      host: 'http://evil.example/x',
      port: 70000,
      paper: '110',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['host', 'paper', 'port']);
    const defaults = await send('POST', '/api/printers', {
      store_id: shop.storeId,
      name: 'Kitchen',
      host: 'printer-2.local',
    });
    expect(defaults.body.data).toMatchObject({ port: 9100, paper: '80', drawer_kick: false, status: 'active' });
  });
});

describe('printing a receipt on a network printer (a fake printer on port 0)', () => {
  it('sends ESC/POS raster of the picture, at the paper’s width: decoded, it is the picture; the QR still reads', async () => {
    const png = await receiptPng();
    const res = await send('POST', `/api/printers/${ids.printer}/print`, { png: png.toString('base64') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Sent to printer Front till.');
    const job = decodeEscPos(await printer.next());
    expect(res.body.data).toMatchObject({ width: 576, drawer_opened: false });
    expect(job.initialized).toBe(true);
    expect(job.cuts).toBe(1);
    expect(job.kicks).toEqual([]);
    expect(job.bands.every((rows) => rows * 72 <= 4096)).toBe(true);
    const printed = job.raster as Raster;
    expect(printed.width).toBe(PAPER_DOTS['80']);
    // exactly the server's own raster of the picture: what it sent is what a printer prints
    expect(printed).toEqual(await pngToRaster(png, 576));
    await saveRaster(printed, 'network-receipt');
    // the QR, scaled from 800 to 576 dots and thresholded, has every module of the payload's symbol
    expect(qrMatch(printed, payload)).toBe(1);
    // and the check can tell another payload's symbol from it
    expect(qrMatch(printed, payload.replace('ORD-2026-000007', 'ORD-2026-000008'))).toBeLessThan(0.9);
  });

  it('takes raster rows too (the till’s own), centred on the paper', async () => {
    const width = 384;
    const raster: Raster = {
      width,
      height: 40,
      bits: new Uint8Array(width * 40).map((_, i) => (i % width < 8 ? 1 : 0)),
    };
    const data = Buffer.from(packRows(raster).data).toString('base64');
    const res = await send('POST', `/api/printers/${ids.printer}/print`, {
      raster: { width, height: 40, data },
      cut: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = decodeEscPos(await printer.next());
    expect(job.cuts).toBe(0);
    expect((job.raster as Raster).bits[96]).toBe(1); // (576 − 384) / 2 = 96 dots of white on the left
    expect((job.raster as Raster).bits[95]).toBe(0);
  });

  it('opens the drawer after a cash sale’s receipt, not after a card sale’s, and a cashier cannot open it by hand', async () => {
    const png = (await receiptPng()).toString('base64');
    const cash = await shop.sell(1, [{ method: 'cash_usd', amount: 2000 }], cashier);
    const kicked = await send('POST', `/api/printers/${ids.printer}/print`, { png, drawer_order_id: cash.id }, cashier);
    expect(kicked.body.data.drawer_opened).toBe(true);
    expect(decodeEscPos(await printer.next()).kicks).toEqual([{ pin: 2, on_ms: 100, off_ms: 200 }]);

    const card = await shop.sell(1, [{ method: 'card', amount: 1250 }], cashier);
    const quiet = await send('POST', `/api/printers/${ids.printer}/print`, { png, drawer_order_id: card.id }, cashier);
    expect(quiet.body.data.drawer_opened).toBe(false);
    expect(decodeEscPos(await printer.next()).kicks).toEqual([]);
    // someone else's cash sale does not open it either
    const others = await shop.sell(1, [{ method: 'cash_usd', amount: 1250 }]);
    await send('POST', `/api/printers/${ids.printer}/print`, { png, drawer_order_id: others.id }, cashier);
    expect(decodeEscPos(await printer.next()).kicks).toEqual([]);

    expect((await send('POST', `/api/printers/${ids.printer}/drawer`, {}, cashier)).status).toBe(403);
    const manager = await send(
      'POST',
      `/api/printers/${ids.printer}/drawer`,
      {},
      { ...headers, 'x-localization': 'kh' },
    );
    expect(manager.body.message).toBe('បានបើកថតប្រាក់នៅ Front till។');
    const alone = decodeEscPos(await printer.next());
    expect(alone).toMatchObject({ raster: null, cuts: 0, kicks: [{ pin: 2, on_ms: 100, off_ms: 200 }] });
  });

  it('never takes raw commands, and refuses what is not a picture', async () => {
    const raw = await send('POST', `/api/printers/${ids.printer}/print`, { bytes: 'G0A=' });
    expect(raw.status).toBe(422);
    expect(raw.body.errors.png).toEqual(['Send the document as one PNG picture or as raster rows.']);
    const junk = await send('POST', `/api/printers/${ids.printer}/print`, {
      png: Buffer.from('not a png').toString('base64'),
    });
    expect(junk.status).toBe(422);
    expect(junk.body.errors.png).toEqual(['The picture could not be read.']);
    // a PNG of 100 kB that is a picture of 8,000 × 8,000 dots (256 MB decoded) is refused unread
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(8000, 0);
    header.writeUInt32BE(8000, 4);
    header.set([8, 0, 0, 0, 0], 8); // 8-bit grey
    // each row: filter 0, then 8,000 white dots
    const white = Buffer.alloc(8001 * 8000, 0xff);
    for (let row = 0; row < 8000; row++) white[row * 8001] = 0;
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', zlib.deflateSync(white)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const huge = await send('POST', `/api/printers/${ids.printer}/print`, { png: bomb.toString('base64') });
    expect(huge.status).toBe(422);
    expect(huge.body.errors.png).toEqual(['The picture could not be read.']);
    const rows = await send('POST', `/api/printers/${ids.printer}/print`, {
      raster: { width: 16, height: 2, data: 'AAA=' },
    });
    expect(rows.status).toBe(422);
  });

  it('sends only to the local network, and says so when the printer does not answer', async () => {
    const make = async (host: string, p: number) =>
      (await send('POST', '/api/printers', { store_id: shop.storeId, name: `At ${host}`, host, port: p })).body.data.id;
    const png = (await receiptPng()).toString('base64');
    const outside = await send('POST', '/api/printers', { store_id: shop.storeId, name: 'Outside', host: '8.8.8.8' });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.host).toEqual([
      'A printer must be on the depot’s own network: 8.8.8.8 is not an address a printer may have (this server, a loopback, link-local, multicast, broadcast or outside address).',
    ]);

    // a port nothing listens on: refused at once, the same answer as a printer switched off
    const closed = net.createServer();
    const free = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as net.AddressInfo).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    const off = await send(
      'POST',
      `/api/printers/${await make('127.0.0.1', free)}/print`,
      { png },
      { ...headers, 'x-localization': 'kh' },
    );
    expect(off.status).toBe(504);
    expect(off.body.message).toMatch(/^ម៉ាស៊ីនបោះពុម្ព At 127\.0\.0\.1 មិនឆ្លើយតបទេ/);
  });

  it('gives up on a printer that stops taking bytes, after the timeout', async () => {
    const held: net.Socket[] = [];
    const stuck = net.createServer((socket) => {
      socket.pause();
      held.push(socket);
    });
    const stuckPort = await new Promise<number>((resolve) =>
      stuck.listen(0, '127.0.0.1', () => resolve((stuck.address() as net.AddressInfo).port)),
    );
    try {
      // far more than the sockets' buffers hold
      const guard = networkGuard({ ports: [[stuckPort, stuckPort]], allowLoopback: true });
      await expect(sendToPrinter(guard, '127.0.0.1', stuckPort, new Uint8Array(64 * 1024 * 1024), 300)).rejects.toThrow(
        /timed out/,
      );
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => stuck.close(resolve));
    }
  });

  it('are another store’s only for those who cover it: not listed, not shown, not printed on (404)', async () => {
    const other = await send('POST', '/api/stores', { name: 'Siem Reap', code: 'SR01' });
    const there = await send('POST', '/api/printers', {
      store_id: other.body.data.id,
      name: 'SR till',
      host: '127.0.0.1',
      port,
    });
    expect(there.status).toBe(201);
    const id = there.body.data.id;
    const names = async (as: Record<string, string>) =>
      (await send('GET', '/api/printers?per_page=100', undefined, as)).body.data.map((p: { name: string }) => p.name);
    expect(await names(headers)).toContain('SR till');
    expect(await names(cashier)).toContain('Front till');
    expect(await names(cashier)).not.toContain('SR till');
    expect((await send('GET', `/api/printers/${id}`, undefined, cashier)).status).toBe(404);
    const png = (await receiptPng()).toString('base64');
    expect((await send('POST', `/api/printers/${id}/print`, { png }, cashier)).status).toBe(404);
    // a manager who may open drawers, of the first store only
    const managerUser = await createUser(ctx.db, { roles: ['manager'] });
    const manager = {
      ...bearer((await login(ctx.app, managerUser.name, managerUser.password)).token),
      'x-localization': 'en',
    };
    expect((await send('POST', `/api/printers/${id}/drawer`, {}, manager)).status).toBe(404);
    expect(await names(manager)).not.toContain('SR till');

    // given the other store too (user_stores; what changes it touches the user), the cashier sees and prints there
    await ctx.db.insertInto('user_stores').values({ user_id: cashierId, store_id: other.body.data.id }).execute();
    await ctx.db
      .updateTable('users')
      .set({ updated_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', cashierId)
      .execute();
    expect(await names(cashier)).toEqual(expect.arrayContaining(['Front till', 'SR till']));
    const printed = await send('POST', `/api/printers/${id}/print`, { png }, cashier);
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
  });
});
