import { fitToPaper, type Raster, rgbaToGray, toRaster, trimBottom } from '@depot/contracts';
import { domToCanvas } from 'modern-screenshot';
import { documentReady } from './ready.ts';

/**
 * A document laid out by the browser (so its Khmer is shaped by the browser's text engine, with
 * the bundled font embedded) drawn to a canvas exactly the paper's dots wide, then made 1-bit.
 * modern-screenshot copies the element into an SVG foreignObject and draws it: no server-side
 * browser is needed, and the picture is what the cashier saw in the preview.
 */
export async function captureCanvas(element: HTMLElement, dots: number): Promise<HTMLCanvasElement> {
  await documentReady(element);
  const width = element.getBoundingClientRect().width;
  return domToCanvas(element, { scale: dots / width, backgroundColor: '#ffffff' });
}

/** The canvas as the printer's raster: grey thresholded (text and QR stay square), blank rows trimmed. */
export function canvasRaster(canvas: HTMLCanvasElement, dots: number): Raster {
  const width = Math.min(canvas.width, dots);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  const { data } = context.getImageData(0, 0, width, canvas.height);
  const raster = toRaster(rgbaToGray(data, width, canvas.height), width, canvas.height);
  return trimBottom(fitToPaper(raster, dots), 16);
}

/** The canvas as base64 PNG, for a network printer (the server thresholds it again). */
export async function canvasPng(canvas: HTMLCanvasElement): Promise<string> {
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png'),
  );
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
