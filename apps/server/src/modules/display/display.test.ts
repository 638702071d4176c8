import {
  DISPLAY_CODE_ALPHABET,
  DISPLAY_ENDED_EVENT,
  DISPLAY_EVENT,
  type DisplayState,
  IDLE_DISPLAY,
  messages,
} from '@depot/contracts';
import Pusher from 'pusher-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelAuthority } from '../../realtime/authority.ts';
import { bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { connected, type Endpoint, listening, next, signedIn, subscribe } from '../../test/realtime.ts';

// five wrong codes from an address, then it waits (the sign-in throttle, shared)
const ctx = useTestApp({ throttle: { perPair: 5, perAddress: 5, windowMs: 60_000 } });
let endpoint: Endpoint;
let storeId: number;
const clients: Pusher[] = [];

beforeAll(async () => {
  endpoint = await listening(ctx.app);
  storeId = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

const sale: DisplayState = {
  ...IDLE_DISPLAY,
  phase: 'cart',
  lines: [
    {
      name_kh: 'អង្ករ',
      name_en: 'Rice',
      quantity: 2,
      unit_kh: 'គីឡូ',
      unit_en: 'kg',
      unit_price_cents: 175,
      amount_cents: 350,
    },
  ],
  total_cents: 350,
  total_khr: 14_400,
};

async function cashier() {
  const user = await createUser(ctx.db, { roles: ['cashier'] });
  const { token } = await login(ctx.app, user.name, user.password);
  return { ...user, token };
}

const post = (url: string, token: string | null, payload?: object, address = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {}, remoteAddress: address });

/** A cashier's code, entered on a tablet: the display token and its channel. */
async function paired(till: { token: string }, address = '10.0.0.1') {
  const code = (await post('/api/display/pairings', till.token)).json().data.code as string;
  const answer = await post('/api/display/pair', null, { code }, address);
  expect(answer.statusCode).toBe(200);
  return answer.json().data as { token: string; channel: string; pairing_id: number };
}

/** The tablet's pusher-js, as the display page configures it: its token, the display endpoints. */
async function tablet(token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const client = new Pusher(endpoint.key, {
    cluster: 'depot',
    wsHost: '127.0.0.1',
    wsPort: endpoint.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: { endpoint: `${endpoint.base}/api/display/auth`, transport: 'ajax', headers },
    userAuthentication: { endpoint: `${endpoint.base}/api/display/user-auth`, transport: 'ajax', headers },
  });
  clients.push(client);
  client.signin();
  await connected(client);
  await signedIn(client);
  return client;
}

const socketId = '1234.5678';

describe('pairing a customer display', () => {
  it('gives the till a code that a tablet exchanges, once, for a display token and its channel', async () => {
    const till = await cashier();
    const made = await post('/api/display/pairings', till.token);
    expect(made.statusCode).toBe(201);
    const { code, expires_at } = made.json().data;
    expect(code).toMatch(new RegExp(`^[${DISPLAY_CODE_ALPHABET}]{6}$`));
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const status = () => ctx.app.inject({ url: '/api/display/pairings/current', headers: bearer(till.token) });
    expect((await status()).json().data).toEqual({ paired: false, waiting: true });

    // typed on a tablet: lower case, a space in the middle
    const typed = `${code.slice(0, 3).toLowerCase()} ${code.slice(3)}`;
    const answer = await post('/api/display/pair', null, { code: typed });
    expect(answer.statusCode).toBe(200);
    const { token, channel, pairing_id } = answer.json().data;
    expect(token).toMatch(/^dpd_[A-Za-z0-9_-]{43}$/);
    expect(channel).toBe(`private-display.${pairing_id}`);
    expect((await status()).json().data).toEqual({ paired: true, waiting: false });
    // neither the code nor the token is kept as it is
    const row = await ctx.db
      .selectFrom('display_pairings')
      .selectAll()
      .where('id', '=', pairing_id)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toBeNull();
    expect(row.token_hash).not.toContain(token.slice(4, 20));

    // used: the same code again is wrong, in the tablet's language
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/display/pair',
      payload: { code },
      headers: { 'x-localization': 'en' },
      remoteAddress: '10.0.0.2',
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.code).toEqual([messages['display.code_wrong'].en]);
  });

  it('needs the till: no permission to sell, no code; an expired code is wrong; bad input is a 422', async () => {
    const clerk = await createUser(ctx.db, { permissions: ['products.list'] });
    const { token } = await login(ctx.app, clerk.name, clerk.password);
    expect((await post('/api/display/pairings', token)).statusCode).toBe(403);
    expect((await post('/api/display/pairings', null)).statusCode).toBe(401);

    const till = await cashier();
    const code = (await post('/api/display/pairings', till.token)).json().data.code;
    await ctx.db
      .updateTable('display_pairings')
      .set({ code_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('session_id', 'in', ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', till.id))
      .execute();
    const late = await post('/api/display/pair', null, { code }, '10.0.1.1');
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.code).toEqual([messages['display.code_wrong'].kh]);

    for (const payload of [{ code: 123456 }, { code: 'x'.repeat(21) }, {}, { code: null }]) {
      const bad = await post('/api/display/pair', null, payload, '10.0.1.2');
      expect(bad.statusCode).toBe(422);
    }
    const state = await post('/api/display/state', till.token, { ...sale, total_cents: -5 });
    expect(state.statusCode).toBe(422);
  });

  it('throttles guessing per address: five wrong codes, then 429 even for the right one', async () => {
    const till = await cashier();
    const code = (await post('/api/display/pairings', till.token)).json().data.code as string;
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (let i = 0; i < 5; i++)
      expect((await post('/api/display/pair', null, { code: wrong }, '10.0.2.1')).statusCode).toBe(422);
    const refused = await post('/api/display/pair', null, { code }, '10.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not held up by this one's guesses
    expect((await post('/api/display/pair', null, { code }, '10.0.2.2')).statusCode).toBe(200);
  });
});

describe("a display token opens its till's display channel and nothing else", () => {
  it('is no API token, and no user token signs a display in', async () => {
    const till = await cashier();
    const { token, channel } = await paired(till);
    for (const url of ['/api/me', '/api/products', '/api/orders', '/api/display/pairings/current']) {
      expect((await ctx.app.inject({ url, headers: bearer(token) })).statusCode).toBe(401);
    }
    expect((await post('/api/display/state', token, sale)).statusCode).toBe(401);
    expect((await post('/api/display/pairings', token)).statusCode).toBe(401);
    expect((await post('/broadcasting/auth', token, { socket_id: socketId, channel_name: channel })).statusCode).toBe(
      401,
    );
    // the display endpoints take a display token only: the cashier's own is refused there
    expect(
      (await post('/api/display/auth', till.token, { socket_id: socketId, channel_name: channel })).statusCode,
    ).toBe(401);
    expect((await post('/api/display/user-auth', null, { socket_id: socketId })).statusCode).toBe(401);
    // and no user may listen to a display's channel, the cashier included
    expect(
      (await post('/broadcasting/auth', till.token, { socket_id: socketId, channel_name: channel })).statusCode,
    ).toBe(403);
  });

  it("signs its own channel alone: not a store's, the depot's, a user's or another display's", async () => {
    const till = await cashier();
    const mine = await paired(till);
    const other = await paired(await cashier(), '10.0.3.2');
    const signs = (name: string) =>
      post('/api/display/auth', mine.token, { socket_id: socketId, channel_name: name }).then((r) => r.statusCode);
    expect(await signs(mine.channel)).toBe(200);
    for (const name of [
      other.channel,
      `private-stores.${storeId}`,
      `presence-stores.${storeId}`,
      'private-depot',
      `private-App.Models.User.${till.id}`,
      'private-App.Models.User.0',
    ]) {
      expect([name, await signs(name)]).toEqual([name, 403]);
    }
  });

  it("follows the till's sale over real time; another till's state never reaches it", async () => {
    const till = await cashier();
    const { token, channel } = await paired(till, '10.0.4.1');
    const display = await tablet(token);
    const listening = await subscribe(display, channel);
    // a store's channel, signed for a user, is refused to the display's socket
    await expect(subscribe(display, `private-stores.${storeId}`)).rejects.toBeTruthy();

    const arrived = next<DisplayState>(listening, DISPLAY_EVENT);
    const sent = await post('/api/display/state', till.token, sale);
    expect(sent.json().data).toEqual({ displays: 1 });
    expect(await arrived).toEqual(sale);

    // another cashier has no display: nothing is sent anywhere
    const stranger = await cashier();
    expect((await post('/api/display/state', stranger.token, { ...sale, total_cents: 1 })).json().data).toEqual({
      displays: 0,
    });
    // the next event this display gets is its own till's
    const following = next<DisplayState>(listening, DISPLAY_EVENT);
    await post('/api/display/state', till.token, IDLE_DISPLAY);
    expect(await following).toEqual(IDLE_DISPLAY);

    // forty lines of long Khmer names do not fit one message: the newest arrive, the others are counted
    const long = 'ស្ករត្នោតកំពង់ស្ពឺ'.repeat(10);
    const big: DisplayState = {
      ...sale,
      lines: Array.from({ length: 40 }, (_, i) => ({
        ...sale.lines[0],
        name_kh: `${long} ${i}`,
        name_en: `Sugar ${i}`,
      })),
      earlier: 3,
    };
    const trimmed = next<DisplayState>(listening, DISPLAY_EVENT);
    expect((await post('/api/display/state', till.token, big)).statusCode).toBe(200);
    const got = await trimmed;
    expect(got.lines.length).toBeLessThan(40);
    expect(got.lines.at(-1)?.name_en).toBe('Sugar 39');
    expect(got.earlier).toBe(3 + 40 - got.lines.length);
  });

  it("ends with the cashier's session, and when the till pairs another display", async () => {
    const till = await cashier();
    const first = await paired(till, '10.0.5.1');
    const display = await tablet(first.token);
    const listening = await subscribe(display, first.channel);

    // a new code for this till: the first display is told, its socket closed, its token dead
    const ended = next(listening, DISPLAY_ENDED_EVENT);
    const closed = new Promise<void>((resolve) =>
      display.connection.bind('state_change', (s: { current: string }) => {
        if (s.current !== 'connected') resolve();
      }),
    );
    const second = await paired(till, '10.0.5.1');
    await ended;
    await closed;
    expect(
      (await post('/api/display/auth', first.token, { socket_id: socketId, channel_name: first.channel })).statusCode,
    ).toBe(401);
    expect(
      (await post('/api/display/auth', second.token, { socket_id: socketId, channel_name: second.channel })).statusCode,
    ).toBe(200);

    // the cashier signs out: the display token goes with the session
    expect((await post('/api/logout', till.token)).statusCode).toBeLessThan(300);
    expect(
      (await post('/api/display/auth', second.token, { socket_id: socketId, channel_name: second.channel })).statusCode,
    ).toBe(401);
    expect((await post('/api/display/user-auth', second.token, { socket_id: socketId })).statusCode).toBe(401);
    // and a socket signing in as that display (a signature got before) is refused: the hub asks again
    expect(await channelAuthority(ctx.db, `display:${second.pairing_id}`)).toBeNull();
  });

  it("the hub's authority: a live display may listen to its own channel alone", async () => {
    const { pairing_id, channel } = await paired(await cashier(), '10.0.6.1');
    const may = await channelAuthority(ctx.db, `display:${pairing_id}`);
    expect(may?.(channel)).toBe(true);
    expect(may?.(`private-display.${pairing_id + 1}`)).toBe(false);
    expect(may?.(`private-stores.${storeId}`)).toBe(false);
    expect(may?.('private-depot')).toBe(false);
    expect(await channelAuthority(ctx.db, 'display:999999')).toBeNull();
    expect(await channelAuthority(ctx.db, 'display:')).toBeNull();
  });
});
