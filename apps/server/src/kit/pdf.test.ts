import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, closePdfBrowser, printPdf } from './pdf.ts';

const page = (text: string) => `<!doctype html><html><body><p>${text}</p></body></html>`;
const options = { unavailable: 'profile.pdf_unavailable' as const };
/** The PDF's text (poppler's pdftotext, as the other PDF tests read theirs). */
const textOf = (pdf: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8').trim();

describe.skipIf(!fs.existsSync(CHROMIUM_PATH))('printing a PDF with the one Chromium', () => {
  it('prints pages asked for at once, each whole', { timeout: 60_000 }, async () => {
    const pdfs = await Promise.all(['one', 'two', 'three'].map((text) => printPdf(page(text), options)));
    expect(pdfs.map(textOf)).toEqual(['one', 'two', 'three']);
  });

  it('prints again after its Chromium was closed', { timeout: 60_000 }, async () => {
    expect(textOf(await printPdf(page('before'), options))).toBe('before');
    await closePdfBrowser();
    expect(textOf(await printPdf(page('after'), options))).toBe('after');
    // closed while a print waits for it: the print that follows starts another
    const closing = closePdfBrowser();
    const next = printPdf(page('meanwhile'), options);
    await closing;
    expect(textOf(await next)).toBe('meanwhile');
    await closePdfBrowser();
  });
});
