/**
 * bench/till-coldstart.ts's "new device" rows: the till's search and scans before its first sync
 * (issue 34), with their floors, driven by that bench's harness (passed in: `Harness`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { lockProducts, receive } from '../apps/server/src/modules/stock/ledger.ts';

/** A measure the harness took in the page (till-coldstart.ts). */
export interface Done {
  kind: string;
  text: string;
  shown: number;
  frame: number;
  start?: number;
}

/** What this file uses of till-coldstart.ts's harness. */
export interface Harness {
  newContext: (browser: Browser, block?: boolean) => Promise<BrowserContext>;
  signIn: (page: Page, url: string) => Promise<void>;
  typeTimed: (page: Page, kind: string, text: string, expected: (typed: string) => string | null) => Promise<Done[]>;
  timedScan: (page: Page, kind: 'scan' | 'floorScan', code: string) => Promise<Done>;
  rounds: number;
}

/** The requests that hold a new device's first sync back: its catalogue's changes (and a snapshot, where one is asked). */
const syncRequest = (address: URL) =>
  address.pathname === '/api/products/changes' || address.pathname.startsWith('/api/products/snapshot');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};
const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(n < 10 ? 1 : 0));

/**
 * Puts stock of the products to scan in the first store (the administrator's), through the ledger:
 * before its sync the till hears each product's stock from the server and refuses one it has none of.
 */
export async function stockToScan(databaseUrl: string, codes: string[]) {
  const { db, close } = createDatabase(databaseUrl);
  try {
    const store = await db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow();
    const found = await db.selectFrom('products').select('id').where('barcode', 'in', codes).execute();
    await db.transaction().execute(async (trx) => {
      await lockProducts(
        trx,
        found.map((row) => row.id),
      );
      for (const { id } of found)
        await receive(trx, {
          storeId: store.id,
          productId: id,
          type: 'purchase_receipt',
          batch: { lot: null, expiryDate: null },
          quantity: 100,
          valueCents: 100,
          document: null,
          userId: null,
        });
    });
  } finally {
    await close();
  }
}

/** Where a key's or scan's time went: its last /api/products request, from the key (resource timing). */
interface Spent {
  wait: number;
  fetch: number;
  after: number;
}

/**
 * A new device before its first sync (its catalogue's requests held back, the service worker not
 * yet there): the till searches on the server. The same searches and scans as the local ones, each
 * waited for until the first tile is the one the local index answers (the same ranking), and where
 * their time went; with the page's own round trip to GET /api/health as a floor.
 */
export async function beforeSync(
  h: Harness,
  browser: Browser,
  url: string,
  searches: string[],
  codes: string[],
  expected: (typed: string) => string | null,
) {
  const context = await h.newContext(browser, true);
  // refused while the context lives (a request held open would keep the page from ever being idle)
  await context.route(syncRequest, (route) => route.fulfill({ status: 503, json: { message: 'held back' } }));
  const page = await context.newPage();
  await h.signIn(page, url);
  await page.goto(`${url}/en/pos`);
  await page.waitForSelector('[data-testid="pos-products"][data-catalogue="server"] [data-testid="pos-grid"]', {
    timeout: 60_000,
  });
  await page.waitForLoadState('networkidle');
  const spent = async (done: Done & { start?: number }): Promise<Spent | null> => {
    const entries = (await page.evaluate(
      "performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/products')).map((e) => [e.startTime, e.responseEnd])",
    )) as [number, number][];
    const start = done.start ?? 0;
    const last = entries.filter(([at, end]) => at >= start && end - start <= done.shown + 1).at(-1);
    return last ? { wait: last[0] - start, fetch: last[1] - last[0], after: done.shown - (last[1] - start) } : null;
  };
  const keys: Done[] = [];
  const keySpent: Spent[] = [];
  const search = page.getByTestId('pos-search');
  for (let r = 0; r < h.rounds; r++) {
    for (const text of searches) {
      await search.fill('');
      await search.focus();
      await sleep(600);
      for (const done of await h.typeTimed(page, 'search', text, expected)) {
        keys.push(done);
        const where = await spent(done);
        if (where) keySpent.push(where);
      }
    }
  }
  await search.fill('');
  await sleep(600);
  const scanned: Done[] = [];
  const scanSpent: Spent[] = [];
  for (const code of codes) {
    const done = await h.timedScan(page, 'scan', code);
    scanned.push(done);
    const where = await spent(done);
    if (where) scanSpent.push(where);
    await sleep(300);
  }
  // the floors: a plain input and key listener in this page, and its round trip to the server
  await page.evaluate('window.__bench.floor()');
  const floorKeys: Done[] = [];
  for (const text of searches) {
    await page.evaluate('window.__bench.floorReset()');
    await page.focus('#bench-in');
    floorKeys.push(...(await h.typeTimed(page, 'floor', text, () => null)));
  }
  const floorScans: Done[] = [];
  for (const code of codes) {
    await page.evaluate('window.__bench.floorReset()');
    floorScans.push(await h.timedScan(page, 'floorScan', code));
    await sleep(300);
  }
  const health = (await page.evaluate(`(async () => {
    const out = [];
    for (let i = 0; i < ${Math.max(20, codes.length * 2)}; i++) {
      const start = performance.now();
      await (await fetch('/api/health', { cache: 'no-store' })).text();
      out.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return out;
  })()`)) as number[];
  await context.close();
  return { keys, keySpent, scanned, scanSpent, health, floorKeys, floorScans };
}

/** The "new device" rows: search and scan before the first sync, against the HTTP round trip and the plain DOM. */
export function beforeSyncRows(measured: Awaited<ReturnType<typeof beforeSync>>) {
  const p = (list: number[], at: number) => f(percentile(list, at));
  const http = `HTTP round trip p50 ${p(measured.health, 0.5)}, p99 ${p(measured.health, 0.99)}`;
  const row = (measure: string, goal: string, list: Done[], floor: Done[]) => ({
    measure,
    goal,
    'p50 ms': `${p(
      list.map((d) => d.shown),
      0.5,
    )} (frame ${p(
      list.map((d) => d.frame),
      0.5,
    )})`,
    'max ms': `p99 ${p(
      list.map((d) => d.shown),
      0.99,
    )} (frame ${p(
      list.map((d) => d.frame),
      0.99,
    )})`,
    'floor ms': `${http}; plain DOM p50 ${p(
      floor.map((d) => d.shown),
      0.5,
    )}`,
  });
  const where = (list: Spent[]) => ({
    'key → request p50': p(
      list.map((s) => s.wait),
      0.5,
    ),
    'request p50 / p99': `${p(
      list.map((s) => s.fetch),
      0.5,
    )} / ${p(
      list.map((s) => s.fetch),
      0.99,
    )}`,
    'answer → shown p50 / p99': `${p(
      list.map((s) => s.after),
      0.5,
    )} / ${p(
      list.map((s) => s.after),
      0.99,
    )}`,
  });
  return {
    rows: [
      row('new device: search before sync → first tile right', 'p99 ≤ 150 ms', measured.keys, measured.floorKeys),
      row('new device: scan before sync → new cart line', '≤ 100 ms', measured.scanned, measured.floorScans),
    ],
    spent: { 'search before sync': where(measured.keySpent), 'scan before sync': where(measured.scanSpent) },
  };
}
