/**
 * ESC/POS raster printing, the same on the till (Web Serial, WebUSB) and on the server (a network
 * printer on port 9100). A thermal printer's own fonts have no Khmer, so every document is printed
 * as a picture: the browser lays it out (and shapes the Khmer), this module turns the picture into
 * 1-bit rows and the printer's commands, and `decodeEscPos` turns captured commands back into the
 * picture (the fake printer of the tests).
 *
 * Written here rather than taken from a library: the npm ESC/POS packages are text-first, Node-only
 * (`escpos` needs `usb`/`serialport` native modules) or browser-only, and what Depot needs is a
 * few dozen lines both sides share: `GS v 0` bands, feed, cut and the drawer kick.
 */

/** Printable dots across the roll at 203 dpi: 72 mm of an 80 mm roll, 48 mm of a 58 mm one. */
export const PAPER_DOTS = { '80': 576, '58': 384 } as const;
export type PaperWidth = keyof typeof PAPER_DOTS;

/** A 1-bit picture: one byte per pixel, 1 = black (burnt), 0 = white. */
export interface Raster {
  width: number;
  height: number;
  bits: Uint8Array;
}

export type Halftone = 'threshold' | 'dither';

/**
 * Black and white from grey (0 black … 255 white, one byte per pixel).
 *
 * `threshold` (the default) is what receipts use: text and a QR code are already black on white,
 * and a hard threshold keeps each QR module and each glyph's edge square, where dithering would
 * scatter the grey of anti-aliased edges into dots that blur the modules a scanner reads.
 * `dither` (Floyd–Steinberg) is for photographs, a logo with shading: it keeps the grey levels as
 * dot density.
 */
export function toRaster(
  gray: ArrayLike<number>,
  width: number,
  height: number,
  { halftone = 'threshold', threshold = 128 }: { halftone?: Halftone; threshold?: number } = {},
): Raster {
  assertSize(width, height);
  if (gray.length !== width * height) throw new RangeError(`expected ${width * height} pixels, got ${gray.length}`);
  const bits = new Uint8Array(width * height);
  if (halftone === 'threshold') {
    for (let i = 0; i < bits.length; i++) bits[i] = gray[i] < threshold ? 1 : 0;
    return { width, height, bits };
  }
  const error = Float32Array.from(gray as ArrayLike<number>);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const black = error[i] < threshold;
      bits[i] = black ? 1 : 0;
      const e = error[i] - (black ? 0 : 255);
      if (x + 1 < width) error[i + 1] += (e * 7) / 16;
      if (y + 1 < height) {
        if (x > 0) error[i + width - 1] += (e * 3) / 16;
        error[i + width] += (e * 5) / 16;
        if (x + 1 < width) error[i + width + 1] += e / 16;
      }
    }
  }
  return { width, height, bits };
}

/** Grey from RGBA (a canvas's ImageData, sharp's raw output), transparent areas as white paper. */
export function rgbaToGray(rgba: ArrayLike<number>, width: number, height: number): Uint8Array {
  assertSize(width, height);
  if (rgba.length !== width * height * 4) throw new RangeError('expected 4 bytes a pixel');
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) {
    const alpha = rgba[i * 4 + 3] / 255;
    // ITU-R BT.601 luma, composited over white
    const luma = 0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2];
    gray[i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return gray;
}

/** The largest picture a job takes: 65535 bytes across is the command's limit; 20,000 rows is 2.5 m of paper. */
export const RASTER_MAX_HEIGHT = 20_000;

function assertSize(width: number, height: number) {
  if (!Number.isInteger(width) || width < 1 || width > PAPER_DOTS['80'] * 4) throw new RangeError(`width ${width}`);
  if (!Number.isInteger(height) || height < 1 || height > RASTER_MAX_HEIGHT) throw new RangeError(`height ${height}`);
}

/** Rows packed 8 pixels a byte, leftmost pixel in the high bit; a width not a multiple of 8 is padded white. */
export function packRows(raster: Raster): { bytesPerRow: number; data: Uint8Array } {
  const bytesPerRow = Math.ceil(raster.width / 8);
  const data = new Uint8Array(bytesPerRow * raster.height);
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      if (raster.bits[y * raster.width + x]) data[y * bytesPerRow + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return { bytesPerRow, data };
}

/** The cash drawer's connector pin: ESC/POS `m` = 0 for pin 2, 1 for pin 5. */
export type DrawerPin = 2 | 5;

/**
 * `ESC p m t1 t2`: pulse the drawer's solenoid for t1 × 2 ms, then rest t2 × 2 ms. 100 ms on and
 * 200 ms off open the drawers sold with thermal printers (Epson's own example uses 50/500 ms).
 */
export function drawerKick(pin: DrawerPin = 2, onMs = 100, offMs = 200): Uint8Array {
  const units = (ms: number) => Math.min(255, Math.max(1, Math.round(ms / 2)));
  return Uint8Array.of(0x1b, 0x70, pin === 5 ? 1 : 0, units(onMs), units(offMs));
}

export const ESC_INIT = Uint8Array.of(0x1b, 0x40);
/** `GS V 66 n`: feed n dots (to bring the last line past the cutter), then a partial cut. */
export const cutCommand = (feedDots = 48) => Uint8Array.of(0x1d, 0x56, 66, Math.min(255, feedDots));

/**
 * Bytes of one band at most. Cheap printers take a `GS v 0` image into a receive buffer of a few
 * kilobytes and drop or garble what overflows, so a tall picture goes as bands of whole rows:
 * 4096 bytes is 56 rows of an 80 mm roll, 85 of a 58 mm one.
 */
export const DEFAULT_BAND_BYTES = 4096;

export interface PrintJob {
  /** Nothing to print (a drawer kick alone) when absent. */
  raster?: Raster | null;
  cut?: boolean;
  /** Kick the drawer after printing (on the pin the drawer is wired to). */
  drawer?: { pin: DrawerPin } | null;
  maxBandBytes?: number;
}

/** Initialize, the picture in bands, then cut and kick: the whole job as the printer takes it. */
export function encodeEscPos({ raster, cut = true, drawer = null, maxBandBytes = DEFAULT_BAND_BYTES }: PrintJob) {
  const parts: Uint8Array[] = [ESC_INIT];
  if (raster) {
    const { bytesPerRow, data } = packRows(raster);
    if (bytesPerRow > maxBandBytes) throw new RangeError('a row is wider than a band');
    const rowsPerBand = Math.min(raster.height, Math.floor(maxBandBytes / bytesPerRow));
    for (let top = 0; top < raster.height; top += rowsPerBand) {
      const rows = Math.min(rowsPerBand, raster.height - top);
      // GS v 0 m xL xH yL yH: m = 0 (normal size), x in bytes, y in dots
      parts.push(
        Uint8Array.of(0x1d, 0x76, 0x30, 0, bytesPerRow & 0xff, bytesPerRow >> 8, rows & 0xff, rows >> 8),
        data.subarray(top * bytesPerRow, (top + rows) * bytesPerRow),
      );
    }
  }
  if (cut) parts.push(cutCommand());
  if (drawer) parts.push(drawerKick(drawer.pin));
  return concat(parts);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export interface DecodedJob {
  /** The bands stacked, as printed; null when no picture was sent. */
  raster: Raster | null;
  /** The height of each `GS v 0` band, in order. */
  bands: number[];
  initialized: boolean;
  cuts: number;
  /** Dots fed (ESC J, ESC d at 24 dots a line, and the cut's own feed). */
  fedDots: number;
  kicks: { pin: DrawerPin; on_ms: number; off_ms: number }[];
}

/**
 * What a printer would make of the bytes: the commands above (and `ESC J`, `ESC d`, `LF`) are
 * read, anything else is refused, so a test sees every byte the server sent.
 */
export function decodeEscPos(bytes: Uint8Array): DecodedJob {
  const job: DecodedJob = { raster: null, bands: [], initialized: false, cuts: 0, fedDots: 0, kicks: [] };
  const rows: Uint8Array[] = [];
  let bytesPerRow = -1;
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) throw new RangeError(`command cut short at byte ${at}`);
  };
  while (at < bytes.length) {
    const b = bytes[at];
    if (b === 0x0a) {
      job.fedDots += 24;
      at += 1;
    } else if (b === 0x1b) {
      need(2);
      const c = bytes[at + 1];
      if (c === 0x40) {
        job.initialized = true;
        at += 2;
      } else if (c === 0x70) {
        need(5);
        job.kicks.push({ pin: bytes[at + 2] & 1 ? 5 : 2, on_ms: bytes[at + 3] * 2, off_ms: bytes[at + 4] * 2 });
        at += 5;
      } else if (c === 0x4a || c === 0x64) {
        need(3);
        job.fedDots += c === 0x4a ? bytes[at + 2] : bytes[at + 2] * 24;
        at += 3;
      } else {
        throw new RangeError(`unknown command ESC 0x${c.toString(16)} at byte ${at}`);
      }
    } else if (b === 0x1d) {
      need(2);
      const c = bytes[at + 1];
      if (c === 0x76) {
        need(8);
        if (bytes[at + 2] !== 0x30) throw new RangeError(`unknown GS v 0x${bytes[at + 2].toString(16)}`);
        const x = bytes[at + 4] | (bytes[at + 5] << 8);
        const y = bytes[at + 6] | (bytes[at + 7] << 8);
        need(8 + x * y);
        if (bytesPerRow !== -1 && x !== bytesPerRow) throw new RangeError('bands of different widths');
        bytesPerRow = x;
        rows.push(bytes.subarray(at + 8, at + 8 + x * y));
        job.bands.push(y);
        at += 8 + x * y;
      } else if (c === 0x56) {
        need(3);
        const m = bytes[at + 2];
        if (m === 65 || m === 66) {
          need(4);
          job.fedDots += bytes[at + 3];
          at += 4;
        } else {
          at += 3;
        }
        job.cuts += 1;
      } else {
        throw new RangeError(`unknown command GS 0x${c.toString(16)} at byte ${at}`);
      }
    } else {
      throw new RangeError(`unexpected byte 0x${b.toString(16)} at byte ${at}`);
    }
  }
  if (rows.length) {
    const height = job.bands.reduce((a, b) => a + b, 0);
    const width = bytesPerRow * 8;
    const data = concat(rows);
    const bits = new Uint8Array(width * height);
    for (let i = 0; i < bits.length; i++) bits[i] = (data[i >> 3] >> (7 - (i & 7))) & 1;
    job.raster = { width, height, bits };
  }
  return job;
}

/** A picture narrower than the paper is centred on it (white either side); a wider one is refused. */
export function fitToPaper(raster: Raster, dots: number): Raster {
  if (raster.width > dots) throw new RangeError(`${raster.width} dots do not fit on ${dots}`);
  if (raster.width === dots) return raster;
  const left = Math.floor((dots - raster.width) / 2);
  const bits = new Uint8Array(dots * raster.height);
  for (let y = 0; y < raster.height; y++) {
    bits.set(raster.bits.subarray(y * raster.width, (y + 1) * raster.width), y * dots + left);
  }
  return { width: dots, height: raster.height, bits };
}

/** Rows with no black at the bottom cost paper: trimmed, keeping `margin` of them. */
export function trimBottom(raster: Raster, margin = 8): Raster {
  let last = raster.height - 1;
  const rowEmpty = (y: number) => raster.bits.subarray(y * raster.width, (y + 1) * raster.width).every((b) => b === 0);
  while (last > 0 && rowEmpty(last)) last--;
  const height = Math.min(raster.height, last + 1 + margin);
  return { width: raster.width, height, bits: raster.bits.slice(0, height * raster.width) };
}
