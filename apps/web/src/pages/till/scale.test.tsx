import { encodeScaleBarcode, type ScaleLayout, scaleCodeCandidates } from '@depot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { listAnswer, productRow } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { BEER, SELLING, tillLookups } from '../../test/sales.ts';
import { readScaleLine, readSettledWeight } from './scale.ts';

const WEIGHT: ScaleLayout = { prefix: '20', code_length: 5, value_length: 5, decimals: 3, kind: 'weight' };
const PRICE: ScaleLayout = { prefix: '21', code_length: 5, value_length: 5, decimals: 2, kind: 'price' };
/** Pork at $4.99 a kilogram, its scale code 00042; stock kept in grams. */
const PORK = productRow(7, {
  name_en: 'Pork belly',
  name_kh: 'សាច់ជ្រូកបីជាន់',
  sku: 'PORK-KG',
  barcode: '00042',
  unit_id: 11,
  unit_name_en: 'kg',
  unit_name_kh: 'គីឡូ',
  unit_decimals: 3,
  price_usd_cents: 499,
  price_khr_effective: 20500,
  taxable: false,
});

/** A fake serial port's stream: the chunks as the scale's bytes arrive, split anywhere. */
function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

function scan(code: string) {
  for (const key of code) fireEvent.keyDown(document.body, { key });
  fireEvent.keyDown(document.body, { key: 'Enter' });
}

describe("a scale's continuous output", () => {
  it('reads the common ASCII weight lines in the unit steps, and which are settled', () => {
    expect(readScaleLine('ST,GS,+  1.250kg', 3)).toEqual({ steps: 1250, stable: true });
    expect(readScaleLine('US,GS,+  1.248kg', 3)).toEqual({ steps: 1248, stable: false });
    expect(readScaleLine('  0.845 kg', 3)).toEqual({ steps: 845, stable: true });
    expect(readScaleLine('ST,NT,+0001250 g', 3)).toEqual({ steps: 1250, stable: true });
    // grams for a unit kept in tenths of a kilogram: rounded half up
    expect(readScaleLine('1250 g', 1)).toEqual({ steps: 13, stable: true });
    expect(readScaleLine('OL,GS,+  9.999kg', 3)).toBeNull();
    expect(readScaleLine('ST,GS,-  0.120kg', 3)).toBeNull();
    expect(readScaleLine('2.5 lb', 3)).toBeNull();
    expect(readScaleLine('hello', 3)).toBeNull();
  });

  it('waits past the unsettled and empty lines for the first settled weight, lines split anywhere', async () => {
    const stream = streamOf(
      'US,GS,+  0.9',
      '80kg\r\nST,GS,+  0.000kg\r\n',
      'ST,GS,+  1.2',
      '50kg\r\nST,GS,+  1.250kg\r\n',
    );
    expect(await readSettledWeight(stream, 3)).toBe(1250);
  });

  it('answers nothing when the stream ends without a settled weight, or is stopped', async () => {
    expect(await readSettledWeight(streamOf('US,GS,+  1.000kg\r\n'), 3)).toBeNull();
    const stop = new AbortController();
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const reading = readSettledWeight(endless, 3, stop.signal);
    stop.abort();
    expect(await reading).toBeNull();
  });
});

describe('the till with weighed goods', { timeout: 40_000 }, () => {
  afterEach(() => {
    delete (navigator as unknown as { serial?: unknown }).serial;
  });

  it('puts a weight label and a price label in the cart as their weight, priced once; a weight is typed in kg', async () => {
    const lookups = tillLookups([BEER, PORK]);
    mockFetch({
      ...lookups,
      'GET scale/settings': () => ({ body: { data: { layouts: [WEIGHT, PRICE] } } }),
      // as the server answers a code: also the products a scale label's product code may name
      'GET products/till': (call) => {
        const code = call.query.get('filter[code]');
        const named = code ? [BEER, PORK].filter((p) => scaleCodeCandidates(code).includes(p.barcode ?? '')) : [];
        return named.length ? { body: listAnswer(named) } : lookups['GET products/till'](call);
      },
    });
    signedIn({ permissions: SELLING });
    renderApp('/en/pos');
    await screen.findByTestId('tile-7', {}, { timeout: 30_000 });
    await waitFor(() => expect(localStorage.getItem('depot.scale_layouts')).toContain('"21"'));

    // 1.250 kg at $4.99: $6.24
    scan(encodeScaleBarcode(WEIGHT, '00042', 1250));
    await waitFor(() => expect(screen.getByTestId('cart-line-0').textContent).toContain('Pork belly'));
    expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('1.250');
    expect(screen.getByTestId('line-0-gross-usd').textContent).toContain('$6.24');
    expect(screen.getByTestId('line-0-unit-price').parentElement?.textContent).toContain('$4.99 / kg');
    // no scale on this browser: no button for it
    expect(screen.queryByTestId('line-0-weigh')).toBeNull();

    // a label priced $3.00: the 601 g it buys, a line of its own at the label's price
    scan(encodeScaleBarcode(PRICE, '00042', 300));
    await waitFor(() => expect(screen.getByTestId('cart-line-1')).toBeTruthy());
    expect((screen.getByTestId('line-1-quantity') as HTMLInputElement).value).toBe('0.601');
    expect(screen.getByTestId('line-1-gross-usd').textContent).toContain('$3.00');

    // typed: half a kilo is $2.50 (249.5 cents, rounded once); too many decimals is not taken
    const weight = screen.getByTestId('line-0-quantity');
    fireEvent.change(weight, { target: { value: '0.5' } });
    await waitFor(() => expect(screen.getByTestId('line-0-gross-usd').textContent).toContain('$2.50'));
    fireEvent.change(weight, { target: { value: '0.5004' } });
    expect(screen.getByTestId('line-0-gross-usd').textContent).toContain('$2.50');

    // a wrong check digit is no label: nothing added
    const label = encodeScaleBarcode(WEIGHT, '00042', 2000);
    scan(`${label.slice(0, 12)}${(Number(label[12]) + 1) % 10}`);
    await screen.findByText(/No product matches/);
    expect(screen.queryByTestId('cart-line-2')).toBeNull();
  });

  it('reads the weight from a scale on a serial port where the browser has one', async () => {
    const port = {
      open: async () => undefined,
      close: async () => undefined,
      readable: streamOf('US,GS,+  0.700kg\r\n', 'ST,GS,+  0.755kg\r\n'),
    };
    Object.defineProperty(navigator, 'serial', {
      configurable: true,
      value: { getPorts: async () => [port], requestPort: async () => port },
    });
    mockFetch(tillLookups([BEER, PORK]));
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-7', {}, { timeout: 30_000 }));
    await waitFor(() => expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('1.000'));
    await user.click(screen.getByTestId('line-0-weigh'));
    await waitFor(() => expect((screen.getByTestId('line-0-quantity') as HTMLInputElement).value).toBe('0.755'));
    // 0.755 kg at $4.99: $3.77
    expect(screen.getByTestId('line-0-gross-usd').textContent).toContain('$3.77');
  });
});
