import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KHQR_QR_ERROR_CORRECTION, type Raster } from '@depot/contracts';
import QRCode from 'qrcode';
import sharp from 'sharp';

/**
 * Test helpers for printed pictures: save a raster as a PNG to look at, and read a QR code's
 * modules off it (no QR decoder is installed here, so the modules are compared with the symbol the
 * payload makes: the same matrix means the same text for any scanner).
 */

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
 * The top-left finder pattern of a QR symbol: a black ring 7 modules wide with a white ring inside
 * and a black 3 × 3 centre. Answers its corner and the module size in dots.
 */
function findFinder(r: Raster): { x: number; y: number; module: number } | null {
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
        if (ring && inner && centre) return { x, y, module: m };
      }
      x = end;
    }
  }
  return null;
}

/** How many of the symbol's modules the printed picture gets right (1 = every one). */
export function qrMatch(r: Raster, payload: string): number {
  const symbol = QRCode.create(payload, { errorCorrectionLevel: KHQR_QR_ERROR_CORRECTION });
  const { size, data } = symbol.modules;
  const finder = findFinder(r);
  if (!finder) return 0;
  let same = 0;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const dot = black(r, finder.x + (i + 0.5) * finder.module, finder.y + (j + 0.5) * finder.module);
      if (dot === Boolean(data[j * size + i])) same++;
    }
  }
  return same / (size * size);
}
