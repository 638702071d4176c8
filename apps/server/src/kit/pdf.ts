import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { MessageKey, Numerals } from '@depot/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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

/** A bundled font's Khmer and Latin files (400 and 700) as @font-face rules with data URLs, read once. */
const faces = new Map<string, Promise<string>>();
export function fontFaces(family: string): Promise<string> {
  let rules = faces.get(family);
  if (!rules) {
    rules = readFontFaces(family);
    faces.set(family, rules);
    rules.catch(() => faces.delete(family));
  }
  return rules;
}

async function readFontFaces(family: string): Promise<string> {
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

/** How long Chromium is kept after the last print: a busy day's prints skip its start (about a second). */
const IDLE_MS = 60_000;

/**
 * One Chromium for the process, started at the first print, shared by the prints that follow (each
 * in a context of its own, closed after it), and closed a minute after the last one. A browser that
 * crashed or was closed is started again at the next print.
 */
let shared: { executablePath: string; browser: Promise<Browser> } | undefined;
let printing = 0;
let idle: NodeJS.Timeout | undefined;

async function browserFor(executablePath: string): Promise<Browser> {
  clearTimeout(idle);
  if (shared?.executablePath !== executablePath) {
    const { chromium } = await import('playwright-core');
    const browser = chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
    const own = { executablePath, browser };
    shared = own;
    browser.then(
      (b) =>
        b.on('disconnected', () => {
          if (shared === own) shared = undefined;
        }),
      () => {
        if (shared === own) shared = undefined;
      },
    );
  }
  return shared.browser;
}

function closeWhenIdle() {
  if (printing > 0) return;
  clearTimeout(idle);
  idle = setTimeout(closePdfBrowser, IDLE_MS);
  idle.unref();
}

/** Closes the shared Chromium now (the server's shutdown); the next print starts another. */
export async function closePdfBrowser(): Promise<void> {
  clearTimeout(idle);
  const closing = shared;
  shared = undefined;
  await closing?.browser.then((b) => b.close()).catch(() => {});
}

/**
 * The page in a context of its own on the shared Chromium (no request leaves it but data: URLs),
 * its fonts loaded; `work` makes the file. Chromium missing: 409 with `unavailable`.
 */
async function withPage<T>(
  html: string,
  options: Pick<PdfOptions, 'unavailable' | 'executablePath' | 'numerals'> & { width?: number },
  work: (page: Page) => Promise<T>,
): Promise<T> {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  try {
    await fs.access(executablePath);
  } catch {
    throw new AppError(409, options.unavailable);
  }
  printing += 1;
  let context: BrowserContext | undefined;
  try {
    context = await (await browserFor(executablePath)).newContext(
      options.width ? { viewport: { width: options.width, height: 100 }, deviceScaleFactor: 1 } : {},
    );
    const page = await context.newPage();
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    await page.setContent(html, { waitUntil: 'load' });
    if (options.numerals === 'khmer') await page.evaluate(KHMER_DIGITS_IN_PAGE);
    await page.evaluate('document.fonts.ready.then(() => undefined)');
    return await work(page);
  } finally {
    await context?.close().catch(() => {});
    printing -= 1;
    closeWhenIdle();
  }
}

/** Prints the page to an A4 PDF. Chromium missing: 409 with `options.unavailable`, not a failure. */
export async function printPdf(html: string, options: PdfOptions): Promise<Buffer> {
  return withPage(html, options, (page) =>
    page.pdf({
      format: 'A4',
      landscape: options.landscape ?? false,
      printBackground: true,
      preferCSSPageSize: !options.margin,
      ...(options.margin ? { margin: options.margin } : {}),
    }),
  );
}

/**
 * The page as a PNG `width` CSS pixels wide (one pixel a printer dot) and as long as its content:
 * what the raster pipeline (modules/printing) sends to a roll or label printer.
 */
export async function printPng(
  html: string,
  options: Pick<PdfOptions, 'unavailable' | 'executablePath'> & { width: number },
): Promise<Buffer> {
  return withPage(html, options, (page) => page.screenshot({ fullPage: true, type: 'png' }));
}
