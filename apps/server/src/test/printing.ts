import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KHQR_QR_ERROR_CORRECTION, type KhqrFields, type Raster } from '@depot/contracts';
import QRCode from 'qrcode';
import sharp from 'sharp';

/**
 * Test helpers for KHQR and printing (server tests and e2e): a KHQR's fields, a fake network
 * printer, saving a raster as a PNG to look at, and reading a QR code's modules off it (no QR
 * decoder is installed here, so the modules are compared with the symbol the payload makes: the
 * same matrix means the same text for any scanner).
 */

/** A store's KHQR for an order of $12.50, made at a pinned time. */
export const SAMPLE_KHQR: KhqrFields = {
  account_id: 'depot_pp@aclb',
  merchant_id: null,
  acquiring_bank: null,
  merchant_name: 'Depot Phnom Penh',
  merchant_city: 'Phnom Penh',
  mcc: '5999',
  currency: 'USD',
  amount: 1250,
  bill_number: 'ORD-2026-000042',
  store_label: 'PP01',
  terminal_label: null,
  created_at: 1_767_225_600_000,
  expires_at: 1_767_225_600_000 + 15 * 60_000,
};

/** A receipt printer on port 0 of the loopback that keeps each job it is sent (one connection, one job). */
export function fakePrinter() {
  const jobs: Buffer[] = [];
  const waiting: ((job: Buffer) => void)[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      const job = Buffer.concat(chunks);
      const next = waiting.shift();
      if (next) next(job);
      else jobs.push(job);
      socket.end();
    });
  });
  return {
    /** Listens; answers the port. */
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    /** The next job received (already here, or when it comes). */
    next: () =>
      new Promise<Buffer>((resolve) => (jobs.length ? resolve(jobs.shift() as Buffer) : waiting.push(resolve))),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const ARTIFACTS = path.join(root, 'test-results', 'printing');

/** The raster as a black-on-white PNG in test-results/printing/<name>.png (or at `file`). */
export async function saveRaster(raster: Raster, name: string, file = path.join(ARTIFACTS, `${name}.png`)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const gray = Buffer.alloc(raster.width * raster.height);
  for (let i = 0; i < gray.length; i++) gray[i] = raster.bits[i] ? 0 : 255;
  await sharp(gray, { raw: { width: raster.width, height: raster.height, channels: 1 } })
    .png()
    .toFile(file);
  return file;
}

const black = (r: Raster, x: number, y: number) =>
  x >= 0 && y >= 0 && x < r.width && y < r.height && r.bits[Math.floor(y) * r.width + Math.floor(x)] === 1;

/**
 * Places that look like a QR symbol's top-left finder pattern: a black ring 7 modules wide with a
 * white ring inside and a black 3 × 3 centre. Text can look like one (a letter's bowl in a bold
 * header), so each is only a candidate until the whole symbol's finders agree (`qrMatch`).
 */
function* finderCandidates(r: Raster): Generator<{ x: number; y: number; module: number }> {
  for (let y = 0; y < r.height; y++) {
    let x = 0;
    while (x < r.width) {
      if (!black(r, x, y)) {
        x++;
        continue;
      }
      let end = x;
      while (end < r.width && black(r, end, y)) end++;
      const run = end - x;
      if (run >= 14) {
        const m = run / 7;
        let down = y;
        while (down < r.height && black(r, x, down)) down++;
        const at = (i: number, j: number) => black(r, x + (i + 0.5) * m, y + (j + 0.5) * m);
        const ring = Math.abs(down - y - run) <= 2;
        const inner = [1, 2, 3, 4, 5].every((i) => !at(i, 1) && !at(i, 5) && !at(1, i) && !at(5, i));
        const centre = [2, 3, 4].every((i) => [2, 3, 4].every((j) => at(i, j)));
        if (ring && inner && centre) yield { x, y, module: m };
      }
      x = end;
    }
  }
}

/**
 * How many of the symbol's modules the printed picture gets right (1 = every one), at the first
 * place where all three finder patterns (and their white separators) are where the symbol has them.
 */
export function qrMatch(r: Raster, payload: string): number {
  const symbol = QRCode.create(payload, { errorCorrectionLevel: KHQR_QR_ERROR_CORRECTION });
  const { size } = symbol.modules;
  // BitMatrix.get takes (row, column)
  const dark = (i: number, j: number) => Boolean(symbol.modules.get(j, i));
  for (const finder of finderCandidates(r)) {
    // One finder's width gives the module to a dot or so; over 50 modules that drifts by more than
    // a module. The symbol's full width (the top-right finder's right edge) and height (the
    // bottom-left finder's bottom edge) give it to a fiftieth of a dot.
    const reach = Math.ceil(size * finder.module * 1.06);
    const row = Math.floor(finder.y + finder.module / 2);
    const column = Math.floor(finder.x + finder.module / 2);
    let right = finder.x;
    for (let x = finder.x; x < Math.min(r.width, finder.x + reach); x++) if (black(r, x, row)) right = x;
    let bottom = finder.y;
    for (let y = finder.y; y < Math.min(r.height, finder.y + reach); y++) if (black(r, column, y)) bottom = y;
    const mx = (right - finder.x + 1) / size;
    const my = (bottom - finder.y + 1) / size;
    const printed = (i: number, j: number) => black(r, finder.x + (i + 0.5) * mx, finder.y + (j + 0.5) * my);
    const corners = [
      [0, 0],
      [size - 8, 0],
      [0, size - 8],
    ];
    const finders = corners.every(([ci, cj]) =>
      Array.from({ length: 64 }, (_, k) => [ci + (k % 8), cj + Math.floor(k / 8)]).every(
        ([i, j]) => printed(i, j) === dark(i, j),
      ),
    );
    if (!finders) continue;
    let same = 0;
    for (let j = 0; j < size; j++) for (let i = 0; i < size; i++) if (printed(i, j) === dark(i, j)) same++;
    return same / (size * size);
  }
  return 0;
}
