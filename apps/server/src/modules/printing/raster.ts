import { fitToPaper, RASTER_MAX_HEIGHT, type Raster, rgbaToGray, toRaster } from '@depot/contracts';
import sharp from 'sharp';

export class BadImage extends Error {}

/**
 * A PNG (as the till's browser drew the document) as the paper's 1-bit raster: scaled down to the
 * printer's dots if wider, flattened on white, and thresholded here again whatever the client did,
 * so what reaches the printer is always a picture the server made commands for.
 */
export async function pngToRaster(png: Buffer, dots: number): Promise<Raster> {
  let image: { data: Buffer; info: { width: number; height: number } };
  try {
    // a PNG of a few megabytes can claim a huge picture: refuse more pixels than twice the paper's
    // widest job (a browser at device pixel ratio 2) before decoding any
    image = await sharp(png, { limitInputPixels: dots * 2 * RASTER_MAX_HEIGHT * 2 })
      .toColourspace('srgb')
      .ensureAlpha()
      .resize({ width: dots, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new BadImage('not a picture');
  }
  const { width, height, channels } = image.info as { width: number; height: number; channels: number };
  if (channels !== 4) throw new BadImage(`${channels} channels`);
  if (height > RASTER_MAX_HEIGHT) throw new BadImage('too long');
  return fitToPaper(toRaster(rgbaToGray(image.data, width, height), width, height), dots);
}

/** Rows already packed (8 dots a byte): read back as a raster of the paper's width. */
export function rowsToRaster(width: number, height: number, data: Buffer, dots: number): Raster {
  const bytesPerRow = Math.ceil(width / 8);
  if (data.length !== bytesPerRow * height) throw new BadImage('rows do not match the size');
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) bits[y * width + x] = (data[y * bytesPerRow + (x >> 3)] >> (7 - (x & 7))) & 1;
  }
  return fitToPaper({ width, height, bits }, dots);
}
