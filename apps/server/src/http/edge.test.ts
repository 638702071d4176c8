import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, useTestApp } from '../test/harness.ts';
import { cspNonce } from './headers.ts';

// What the edge of the server refuses, and how: every bad input is a localized 4xx, never a 5xx.
const ctx = useTestApp();
let token: string;
const auth = () => ({ authorization: `Bearer ${token}`, 'x-localization': 'en' });
beforeAll(async () => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { name: 'admin', password: ADMIN_PASSWORD },
  });
  token = res.json().token;
});

function multipart(boundary: string, parts: string[]) {
  return `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`;
}

describe('sort names that are built-in object properties', () => {
  const lists = [
    '/api/products',
    '/api/brands',
    '/api/orders',
    '/api/customers',
    '/api/purchases',
    '/api/products/export',
  ];
  for (const list of lists) {
    it(`${list} refuses them with a localized 422`, async () => {
      for (const sort of ['__proto__', 'constructor', 'toString', '-valueOf', 'hasOwnProperty']) {
        const res = await ctx.app.inject({ method: 'GET', url: `${list}?sort=${sort}`, headers: auth() });
        expect(res.statusCode, `${list}?sort=${sort}`).toBe(422);
        expect(res.json().errors.sort).toEqual(['This column cannot be sorted.']);
      }
    });
  }
});

describe('NUL and lone surrogates in strings', () => {
  it('are refused with a 422 naming the field in searches, filters, bodies and the login name', async () => {
    const search = await ctx.app.inject({ method: 'GET', url: '/api/products?search=a%00b', headers: auth() });
    expect(search.statusCode).toBe(422);
    expect(search.json().errors.search).toEqual(['The text contains characters that are not allowed.']);

    const kh = await ctx.app.inject({
      method: 'GET',
      url: '/api/customers?search=%00',
      headers: { ...auth(), 'x-localization': 'kh' },
    });
    expect(kh.statusCode).toBe(422);
    expect(kh.json().errors.search[0]).toMatch(/[\u1780-\u17ff]/);

    const body = await ctx.app.inject({
      method: 'POST',
      url: '/api/brands',
      headers: auth(),
      payload: { name_en: 'Ok', name_kh: 'Bad\u0000', note: 'x' },
    });
    expect(body.statusCode).toBe(422);
    expect(body.json().errors.name_kh).toEqual(['The text contains characters that are not allowed.']);

    const surrogate = await ctx.app.inject({
      method: 'POST',
      url: '/api/brands',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"name_en":"Lone \\ud800 half","name_kh":"ok"}',
    });
    expect(surrogate.statusCode).toBe(422);
    expect(surrogate.json().errors.name_en).toEqual(['The text contains characters that are not allowed.']);

    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-localization': 'en' },
      payload: { name: 'ad\u0000min', password: 'whatever-123' },
    });
    expect(login.statusCode).toBe(422);
    expect(login.json().errors.name).toEqual(['The text contains characters that are not allowed.']);

    const nested = await ctx.app.inject({
      method: 'POST',
      url: '/api/stocks/adjustments',
      headers: auth(),
      payload: { store_id: 1, reason: 'found', note: 'a\u0000', items: [] },
    });
    expect(nested.statusCode).toBe(422);
    expect(nested.json().errors.note).toEqual(['The text contains characters that are not allowed.']);
  });

  it('are refused in a multipart text field', async () => {
    const boundary = 'XyZ';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/products/import',
      headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: multipart(boundary, [
        'Content-Disposition: form-data; name="note"\r\n\r\nbad\u0000',
        'Content-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nsku\r\n',
      ]),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.note).toEqual(['The text contains characters that are not allowed.']);
  });
});

describe('numbers no column can hold', () => {
  it('an id past the largest record id is refused by the schema, not by PostgreSQL with a 500', async () => {
    const cases = [
      { method: 'GET' as const, url: '/api/stocks/low/count?filter[store_id]=1000000000000' },
      { method: 'POST' as const, url: '/api/stocks/write-offs', payload: { store_id: 1e12, batch_id: 1 } },
      { method: 'GET' as const, url: '/api/products/2147483648' },
      { method: 'PUT' as const, url: '/api/customers/1', payload: { name: 'Dara', village_id: 1e12 } },
    ];
    for (const c of cases) {
      const res = await ctx.app.inject({ ...c, headers: auth() });
      expect(res.statusCode, c.url).toBe(422);
    }
  });
});

describe('malformed multipart bodies', () => {
  for (const url of ['/api/products/import', '/api/products/1/image']) {
    it(`${url} answers a localized 4xx, not a 500`, async () => {
      const bodies = [
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nunterminated',
        'no boundary at all',
        '--XyZ\r\nbroken headers without end',
        '--XyZ--\r\n',
      ];
      for (const payload of bodies) {
        for (const type of ['multipart/form-data; boundary=XyZ', 'multipart/form-data']) {
          const res = await ctx.app.inject({
            method: 'POST',
            url,
            headers: { ...auth(), 'content-type': type },
            payload,
          });
          expect(res.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, `${type} ${payload}`).toBeLessThan(500);
          expect(typeof res.json().message).toBe('string');
        }
      }
    });
  }
});

describe('a body over the limit, on a real socket', () => {
  it('answers a JSON 413 that the client receives, and closes cleanly', async () => {
    const base = new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
    for (const chunked of [false, true, false, true]) {
      const size = 10 * 1024 * 1024;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(base.port), base.hostname);
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString();
        });
        socket.on('error', (err) => (received ? resolve(received) : reject(err)));
        socket.on('close', () => resolve(received));
        socket.write(
          `POST /api/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Localization: en\r\nContent-Type: application/json\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`}\r\n\r\n`,
        );
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            sent += chunk.length;
            const data = chunked ? Buffer.concat([Buffer.from('10000\r\n'), chunk, Buffer.from('\r\n')]) : chunk;
            if (!socket.write(data)) return socket.once('drain', pump);
          }
          if (chunked) socket.end('0\r\n\r\n');
          else socket.end();
        };
        pump();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(answer).toContain('{"message":"The request is too large."}');
    }
    // as a browser or a till's fetch sends it: the answer arrives, the upload is not cut
    for (let round = 0; round < 2; round++) {
      const res = await fetch(`${base.origin}/api/brands`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ name_en: 'x'.repeat(10 * 1024 * 1024), name_kh: 'y' }),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: 'The request is too large.' });
    }
  });
});

describe('headers', () => {
  it('every answer forbids framing and sniffing and has a strict Content-Security-Policy', async () => {
    for (const url of ['/api/health', '/api/nothing', '/api/docs/json']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
      // no eval of scripts; compiling WebAssembly only (the stock count's camera decoder)
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).toMatch(/script-src [^;]*'wasm-unsafe-eval'/);
      expect(csp).toContain("connect-src 'self' ws://localhost:80 wss://localhost:80");
    }
  });

  it("every answer has helmet's hardening headers, written once per request from a list asked of helmet", async () => {
    const hardening = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'same-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    // a public answer, a refusal before the route (401), an unknown route, a validation error
    for (const request of [
      { url: '/api/health' },
      { url: '/api/products' },
      { url: '/api/nothing' },
      { url: '/api/products?page=0', headers: auth() },
    ]) {
      const res = await ctx.app.inject({ method: 'GET', ...request });
      expect(res.headers).toMatchObject(hardening);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('a new nonce for every answer, though drawn from the random source in batches', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      seen.add(/'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '');
    }
    // past several draws: 16 bytes each, never one given twice
    for (let i = 0; i < 1000; i++) seen.add(cspNonce());
    expect(seen.size).toBe(1003);
    for (const nonce of seen) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});
