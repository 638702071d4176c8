import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { MessageKey, Numerals } from '@depot/contracts';
import { AppError } from '../http/errors.ts';

/**
 * The one way Depot makes a PDF (a profile, a report): an HTML page printed by Chromium
 * (playwright-core and Debian's chromium), because Chromium shapes Khmer (subscripts, vowels)
 * where JavaScript PDF libraries do not. Fonts are the web app's bundled @fontsource files,
 * inlined as data URLs, so the server needs no system font and the page fetches nothing.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const require = createRequire(import.meta.url);
const fontPackage = (font: string) => font.toLowerCase().replace(/ /g, '-');

/** A bundled font's Khmer and Latin files (400 and 700) as @font-face rules with data URLs. */
export async function fontFaces(family: string): Promise<string> {
  const pkg = fontPackage(family);
  const rules: string[] = [];
  for (const subset of ['khmer', 'latin']) {
    for (const weight of [400, 700]) {
      let file: string;
      try {
        file = require.resolve(`@fontsource/${pkg}/files/${pkg}-${subset}-${weight}-normal.woff2`);
      } catch {
        continue; // a font without that subset (Noto Sans Khmer has no Latin): the next one's glyphs serve
      }
      const data = (await fs.readFile(file)).toString('base64');
      rules.push(
        `@font-face{font-family:'${family}';font-weight:${weight};src:url(data:font/woff2;base64,${data}) format('woff2')}`,
      );
    }
  }
  return rules.join('\n');
}

export interface PdfOptions {
  /** What the user is told when this server has no Chromium (a 409 in their language). */
  unavailable: MessageKey;
  landscape?: boolean;
  /** CSS margins; without them the page's own `@page` rule decides. */
  margin?: { top: string; bottom: string; left: string; right: string };
  executablePath?: string;
  /** Khmer digits for every figure of the text (the setting on a Khmer document: contracts numerals.ts). */
  numerals?: Numerals;
}

/** In the page: every text node's Latin digits as Khmer digits (styles and attributes untouched). */
const KHMER_DIGITS_IN_PAGE = `(() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    node.nodeValue = node.nodeValue.replace(/[0-9]/g, (d) => '០១២៣៤៥៦៧៨៩'[Number(d)]);
})()`;

/** Prints the page to an A4 PDF. Chromium missing: 409 with `options.unavailable`, not a failure. */
export async function printPdf(html: string, options: PdfOptions): Promise<Buffer> {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  try {
    await fs.access(executablePath);
  } catch {
    throw new AppError(409, options.unavailable);
  }
  // loaded on first use: playwright-core alone takes most of a second to import, on every start and test file
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage();
    // nothing but the page itself: no request leaves the server
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    await page.setContent(html, { waitUntil: 'load' });
    if (options.numerals === 'khmer') await page.evaluate(KHMER_DIGITS_IN_PAGE);
    await page.evaluate('document.fonts.ready.then(() => undefined)');
    return await page.pdf({
      format: 'A4',
      landscape: options.landscape ?? false,
      printBackground: true,
      preferCSSPageSize: !options.margin,
      ...(options.margin ? { margin: options.margin } : {}),
    });
  } finally {
    await browser.close();
  }
}
