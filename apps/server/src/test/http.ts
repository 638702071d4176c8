import { randomBytes, randomUUID } from 'node:crypto';

/**
 * A client of a listening server over real HTTP, for the tests that run the server as it runs in
 * production (a listening app, server processes) rather than through `app.inject`.
 */
export interface HttpAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever the answer holds
  body: any;
}

export function httpClient(baseUrl: string, token?: string) {
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        'x-localization': 'en',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined } as HttpAnswer;
  }
  return {
    call,
    /** The bearer token, for what `call` does not send (multipart). */
    token,
    async signIn(name: string, password: string) {
      const res = await call('POST', '/api/login', { name, password });
      if (res.status !== 200) throw new Error(`sign-in as ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return httpClient(baseUrl, res.body.token as string);
    },
    /** A write that must succeed: its record's id. */
    async made(path: string, body: unknown): Promise<number> {
      const res = await call('POST', path, body);
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.id as number;
    },
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

/** A product with `quantity` units in the first store, and a sale of `perSale` of it by the walk-in customer. */
export async function productOnSale(admin: HttpClient, quantity: number, perSale = 1) {
  const tag = randomBytes(3).toString('hex');
  const category = await admin.made('/api/categories', { name_en: `Drinks ${tag}`, name_kh: `ភេសជ្ជៈ ${tag}` });
  const unit = await admin.made('/api/units', { name_en: `Can ${tag}`, name_kh: `កំប៉ុង ${tag}`, short_name: tag });
  const product = await admin.made('/api/products', {
    name_en: `Angkor beer ${tag}`,
    name_kh: `ស្រាបៀរអង្គរ ${tag}`,
    sku: `BEER-${tag}`,
    category_id: category,
    unit_id: unit,
    price_usd_cents: 125,
    taxable: true,
  });
  const store = (await admin.call('GET', '/api/stores?per_page=10')).body.data[0].id as number;
  const customers = (await admin.call('GET', '/api/customers?per_page=10')).body.data as {
    id: number;
    is_walk_in: boolean;
  }[];
  const adjusted = await admin.call('POST', '/api/stocks/adjustments', {
    store_id: store,
    reason: 'found',
    items: [{ product_id: product, quantity }],
  });
  if (adjusted.status !== 201) throw new Error(`stock: ${adjusted.status} ${JSON.stringify(adjusted.body)}`);
  const sale = {
    customer_id: customers.find((c) => c.is_walk_in)?.id,
    items: [{ product_id: product, quantity: perSale }],
    payments: [{ method: 'cash_usd', amount: 10_000 }],
  };
  return {
    product,
    store,
    /** A checkout as the till sends it, with its own retry key (or the one given). */
    sell: (client: HttpClient, key: string = randomUUID()) =>
      client.call('POST', '/api/orders', sale, { 'idempotency-key': key }),
  };
}
