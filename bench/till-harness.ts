/** The page-side harness of bench/till-coldstart.ts. */

/**
 * In every page, from its start (a plain string: tsx's helpers must not reach the page). Marks of
 * the cold start in `__bench.marks`; one pending measure at a time (`__bench.arm`), its result in
 * `__bench.done`.
 */
export const harness = String.raw`(() => {
  const b = (window.__bench = { marks: {}, pending: null, done: [] });
  const now = () => performance.now();
  const getAll = IDBObjectStore.prototype.getAll;
  IDBObjectStore.prototype.getAll = function (...args) {
    const request = getAll.apply(this, args);
    if (this.name === 'products' && b.marks.idbStart === undefined) {
      b.marks.idbStart = now();
      request.addEventListener('success', () => {
        b.marks.idbRows = request.result.length;
        b.marks.idbDone = now();
      });
    }
    return request;
  };
  // the snapshot (localSnapshot.ts): its products record read, columns and index in one value
  const get = IDBObjectStore.prototype.get;
  IDBObjectStore.prototype.get = function (...args) {
    const request = get.apply(this, args);
    if (this.name === 'snapshot' && b.marks.idbDone === undefined) {
      b.marks.idbStart ??= now();
      if (args[0] === 'products')
        request.addEventListener('success', () => {
          b.marks.idbRows = request.result?.ids?.length ?? 0;
          b.marks.idbDone = now();
        });
    }
    return request;
  };
  const firstTile = () =>
    document.querySelector('[data-testid="pos-grid"] > [data-testid^="tile-"]')?.getAttribute('data-testid') ?? null;
  const shows = (tile) =>
    tile ? firstTile() === tile : document.querySelector('[data-testid="pos-products"] .ant-empty') !== null;
  const searchBox = () => {
    const found = document.querySelector('[data-testid="pos-search"]');
    return found instanceof HTMLInputElement ? found : found?.querySelector('input');
  };
  const setValue = (input, text) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const lines = () => [...document.querySelectorAll('[data-testid^="cart-line-"]')].filter((e) =>
    /^cart-line-\d+$/.test(e.getAttribute('data-testid'))).length;
  let query;
  try { query = JSON.parse(localStorage.getItem('bench-query') ?? 'null'); } catch { query = null; }
  const check = () => {
    const m = b.marks;
    const pane = document.querySelector('[data-testid="pos-products"]');
    if (pane && m.pane === undefined) m.pane = now();
    if (pane && m.local === undefined && pane.getAttribute('data-catalogue') === 'local') {
      m.local = now();
      const input = searchBox();
      if (query && input) {
        setValue(input, query.text);
        m.typed = now();
        setTimeout(check, 0);
      }
    }
    if (query && m.typed !== undefined && m.answered === undefined && shows(query.tile)) {
      m.answered = now();
      requestAnimationFrame(() => (m.painted = now()));
    }
    const p = b.pending;
    if (!p || p.start === undefined || p.shown !== undefined) return;
    const ok =
      p.kind === 'search' ? searchBox()?.value === p.text && shows(p.tile)
      : p.kind === 'scan' ? lines() > p.lines
      : document.getElementById('bench-out')?.textContent === p.text;
    if (!ok) return;
    p.shown = now() - p.start;
    requestAnimationFrame(() => {
      p.frame = now() - p.start;
      b.done.push(p);
      b.pending = null;
    });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const started = (event) => {
    if (b.pending && b.pending.start === undefined) b.pending.start = event.timeStamp;
  };
  addEventListener('keydown', started, true);
  addEventListener('beforeinput', started, true);
  addEventListener('input', (event) => {
    started(event);
    setTimeout(check, 0);
  }, true);
  addEventListener('keyup', () => setTimeout(check, 0), true);
  b.arm = (pending) => {
    b.pending = pending;
    if (pending.kind === 'scan') pending.lines = lines();
  };
  b.floor = () => {
    if (document.getElementById('bench-in')) return;
    const input = document.createElement('input');
    input.id = 'bench-in';
    const out = document.createElement('div');
    out.id = 'bench-out';
    for (const e of [input, out]) Object.assign(e.style, { position: 'fixed', top: '0', left: '0', zIndex: 9999 });
    input.addEventListener('input', () => {
      if (b.pending?.kind === 'floor') out.textContent = input.value;
    });
    let typed = '';
    addEventListener('keydown', (event) => {
      if (!b.pending || b.pending.kind !== 'floorScan') return;
      if (event.key === 'Enter') out.textContent = typed;
      else typed += event.key;
    }, true);
    b.floorReset = () => { typed = ''; out.textContent = ''; input.value = ''; };
    document.body.append(input, out);
  };
})();`;
