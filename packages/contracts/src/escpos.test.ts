import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BAND_BYTES,
  decodeEscPos,
  drawerKick,
  encodeEscPos,
  fitToPaper,
  PAPER_DOTS,
  packRows,
  type Raster,
  rgbaToGray,
  toRaster,
  trimBottom,
} from './escpos.ts';

const raster = (width: number, height: number, on: (x: number, y: number) => boolean): Raster => {
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) bits[y * width + x] = on(x, y) ? 1 : 0;
  return { width, height, bits };
};

const rasters = fc
  .record({ width: fc.integer({ min: 1, max: 600 }), height: fc.integer({ min: 1, max: 120 }), seed: fc.nat() })
  .map(({ width, height, seed }) => raster(width, height, (x, y) => (x * 31 + y * 17 + seed) % 7 < 3));

describe('ESC/POS raster', () => {
  it('packs eight dots a byte, leftmost in the high bit, padding a width not a multiple of 8 with white', () => {
    const r = raster(10, 2, (x, y) => (y === 0 ? x === 0 || x === 9 : x === 7));
    const { bytesPerRow, data } = packRows(r);
    expect(bytesPerRow).toBe(2);
    expect([...data]).toEqual([0b1000_0000, 0b0100_0000, 0b0000_0001, 0]);
  });

  it('sends initialize, GS v 0 bands within the buffer, a partial cut', () => {
    const r = raster(PAPER_DOTS['80'], 200, (x, y) => (x + y) % 3 === 0);
    const bytes = encodeEscPos({ raster: r });
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
    // 72 bytes a row: 56 rows a band fit in 4096 bytes; 200 rows are bands of 56, 56, 56, 32
    expect([...bytes.subarray(2, 10)]).toEqual([0x1d, 0x76, 0x30, 0, 72, 0, 56, 0]);
    const decoded = decodeEscPos(bytes);
    expect(decoded.bands).toEqual([56, 56, 56, 32]);
    expect(decoded.bands.every((h) => h * 72 <= DEFAULT_BAND_BYTES)).toBe(true);
    expect(decoded.initialized).toBe(true);
    expect(decoded.cuts).toBe(1);
    expect([...bytes.subarray(-4)]).toEqual([0x1d, 0x56, 66, 48]);
    expect(decoded.kicks).toEqual([]);
    expect(decoded.raster).toEqual(r);
  });

  it('splits 58 mm rows into larger bands and honours a smaller buffer', () => {
    const r = raster(PAPER_DOTS['58'], 100, () => true);
    expect(decodeEscPos(encodeEscPos({ raster: r })).bands).toEqual([85, 15]);
    expect(decodeEscPos(encodeEscPos({ raster: r, maxBandBytes: 48 * 24 })).bands).toEqual([24, 24, 24, 24, 4]);
  });

  it('kicks the drawer on pin 2 or pin 5 with ESC p m t1 t2', () => {
    expect([...drawerKick(2)]).toEqual([0x1b, 0x70, 0, 50, 100]);
    expect([...drawerKick(5, 50, 500)]).toEqual([0x1b, 0x70, 1, 25, 250]);
    const job = encodeEscPos({ raster: null, cut: false, drawer: { pin: 5 } });
    expect([...job]).toEqual([0x1b, 0x40, 0x1b, 0x70, 1, 50, 100]);
    expect(decodeEscPos(job).kicks).toEqual([{ pin: 5, on_ms: 100, off_ms: 200 }]);
  });

  it('decodes what it encodes, for any width (padded to whole bytes)', () => {
    fc.assert(
      fc.property(rasters, (r) => {
        const decoded = decodeEscPos(encodeEscPos({ raster: r })).raster as Raster;
        const width = Math.ceil(r.width / 8) * 8;
        const padded = raster(width, r.height, (x, y) => x < r.width && r.bits[y * r.width + x] === 1);
        expect(decoded).toEqual(padded);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses bytes it does not know and commands cut short', () => {
    expect(() => decodeEscPos(Uint8Array.of(0x1b, 0x40, 0x41))).toThrow(/unexpected byte/);
    expect(() => decodeEscPos(Uint8Array.of(0x1d, 0x76, 0x30, 0, 2, 0, 2, 0, 1))).toThrow(/cut short/);
  });

  it('thresholds grey, and dithers it into a dot density', () => {
    expect([...toRaster([0, 127, 128, 255], 4, 1).bits]).toEqual([1, 1, 0, 0]);
    const grey = new Uint8Array(64 * 64).fill(128);
    const dithered = toRaster(grey, 64, 64, { halftone: 'dither' });
    const black = dithered.bits.reduce((a, b) => a + b, 0) / dithered.bits.length;
    expect(black).toBeGreaterThan(0.45);
    expect(black).toBeLessThan(0.55);
    // a threshold makes mid-grey all one colour
    expect(toRaster(grey, 64, 64).bits.every((b) => b === 0)).toBe(true);
  });

  it('reads RGBA as grey over white paper', () => {
    expect([...rgbaToGray([0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 0, 255, 0, 0, 255], 4, 1)]).toEqual([
      0, 255, 255, 76,
    ]);
  });

  it('centres a narrower picture on the paper and trims blank rows at the bottom', () => {
    const r = raster(4, 10, (_x, y) => y < 2);
    const fitted = fitToPaper(r, 8);
    expect([...fitted.bits.subarray(0, 8)]).toEqual([0, 0, 1, 1, 1, 1, 0, 0]);
    expect(() =>
      fitToPaper(
        raster(9, 1, () => true),
        8,
      ),
    ).toThrow(RangeError);
    expect(trimBottom(r, 1).height).toBe(3);
  });
});
