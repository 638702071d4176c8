import { type Ability, DEFAULT_ROLES } from '@depot/contracts';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError, FieldError } from '../http/errors.ts';
import { comboPolicy } from '../policies/combos.ts';
import { EVERY_STORE } from '../policies/coverage.ts';
import { customerPaymentPolicy } from '../policies/credit.ts';
import { orderPolicy } from '../policies/orders.ts';
import { type Actor, assertStoreInput, type Policy } from '../policies/policy.ts';
import { priceListPolicy } from '../policies/prices.ts';
import { assertPaysSuppliers, purchasePolicy } from '../policies/purchases.ts';
import { shiftPolicy } from '../policies/shifts.ts';
import { transferPolicy } from '../policies/transfers.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../test/harness.ts';

const ctx = useTestApp();

/** What the policy says of an action: 'ok', or the status of its refusal (a field's refusal is a 422). */
function outcome(decide: () => unknown): 'ok' | number {
  try {
    decide();
    return 'ok';
  } catch (error) {
    if (error instanceof FieldError) return 422;
    if (error instanceof AppError) return error.statusCode;
    throw error;
  }
}

/**
 * Every action of every document, for every default role, on records of the user's own store.
 * The answer expected is not written here: it is what the server's policy says for that user and
 * that record (`abilities` and `authorize`, the functions the routes call), so a rule changed in
 * apps/server/src/policies changes what this walk expects, and only a route that does otherwise
 * fails it. Besides, the abilities a user is sent with the record are the policy's, an action is
 * allowed exactly when its ability is true, 'approval' answers 403 `approval_required`, and a route
 * whose permission the user lacks answers 403 and is never offered as an ability.
 */
describe('every action of every document, as each role', () => {
  type Headers = Record<string, string>;
  const ids: Record<string, number> = {};
  let admin: Headers;
  let serial = 0;
  const unique = () => `${++serial}`;

  const call = async (headers: Headers, method: string, url: string, payload?: object) => {
    const res = await ctx.app.inject({
      method: method as InjectOptions['method'],
      url,
      headers: { ...headers, 'x-localization': 'en' },
      payload,
    });
    const json = String(res.headers['content-type'] ?? '').includes('json');
    return { status: res.statusCode, body: json ? res.json() : res.body };
  };
  const made = async (headers: Headers, method: string, url: string, payload?: object) => {
    const res = await call(headers, method, url, payload);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  /** A signed-in user of a role, working in the home store, and the server's actor for them. */
  interface Who {
    role: (typeof DEFAULT_ROLES)[number];
    headers: Headers;
    actor: Actor;
    holds(permission: string): boolean;
  }
  const signIn = async (role: (typeof DEFAULT_ROLES)[number]): Promise<Who> => {
    const user = await createUser(ctx.db, { roles: [role.name], store: ids.home });
    const permissions = new Set<string>(role.permissions);
    return {
      role,
      headers: bearer((await login(ctx.app, user.name, user.password)).token),
      actor: {
        userId: user.id,
        storeId: ids.home,
        permissions,
        coverage: permissions.has('all_stores.view') ? EVERY_STORE : { all: false, storeIds: [ids.home] },
      },
      holds: (permission) => permission === 'authenticated' || permissions.has(permission),
    };
  };

  // biome-ignore lint/suspicious/noExplicitAny: each document's policy reads its own facts
  type AnyPolicy = Policy<any, string>;
  /** One action on one record: a document's (its ability and rule), or a route whose policy is a check. */
  interface Step {
    route: string;
    id: number;
    body?: object;
    /** A document: its policy, the action's name, and the detail it is read from. */
    policy?: AnyPolicy;
    action?: string;
    detail?: string;
    /** The facts, when the detail does not show them (a deleted record). */
    facts?: object;
    /** A route without abilities: the policy check it makes. */
    check?: (actor: Actor) => unknown;
    note?: string;
  }

  const accessOf = (route: string) => {
    const found = ctx.app.accessTable.find((r) => `${r.method} ${r.url}` === route);
    if (!found) throw new Error(`no route ${route}`);
    return found.access;
  };
  const walked = new Set<string>();

  /** The document actions taken, to be taken again once their records have moved on. */
  let taken: Step[] = [];

  /**
   * The action as `who`, expecting what the policy says. `again`: the same action on the record as
   * it is now (cancelled, received, closed, deleted…), walked only where the policy refuses it: a
   * state's refusal must be the policy's 409 / 422 / 404 too, never a 5xx.
   */
  async function act(who: Who, step: Step, again = false) {
    walked.add(step.route);
    if (step.policy && !again) taken.push(step);
    const [method, url] = step.route.split(' ');
    const at = (path: string) => path.replace(':id', String(step.id));
    const label = `${who.role.name} ${step.route}${step.note ? ` (${step.note})` : ''}${again ? ' again' : ''}`;
    let expected: 'ok' | number;
    let ability: Ability | undefined;
    if (step.policy && step.action && step.detail) {
      const facts = step.facts ?? (await made(admin, 'GET', at(step.detail)));
      const abilities = step.policy.abilities(who.actor, facts);
      ability = abilities[step.action];
      const seen = await call(who.headers, 'GET', at(step.detail));
      if (seen.status === 200) expect(seen.body.data.abilities, `${label}: the abilities sent`).toEqual(abilities);
      expected = outcome(() => step.policy?.authorize(who.actor, facts, step.action as string));
      expect(ability === true, `${label}: the ability and the rule`).toBe(expected === 'ok');
    } else if (step.check) {
      const check = step.check;
      expected = outcome(() => check(who.actor));
    } else throw new Error(`${label}: neither a policy nor a check`);
    if (again && expected === 'ok') return;

    const res = await call(who.headers, method, at(url), step.body);
    const answer = `${label}: ${res.status} ${JSON.stringify(res.body)}`;
    expect(res.status, answer).toBeLessThan(500);
    if (!who.holds(accessOf(step.route))) {
      expect(res.status, answer).toBe(403);
      if (ability !== undefined) expect(ability, `${label}: offered without the route's permission`).toBe(false);
    } else if (expected === 'ok') expect(res.status, answer).toBeLessThan(300);
    else {
      expect(res.status, answer).toBe(expected);
      if (ability === 'approval') expect(res.body.code, answer).toBe('approval_required');
    }
  }

  const sale = (over: object = {}) => ({
    store_id: ids.home,
    customer_id: ids.walkIn,
    items: [{ product_id: ids.product, quantity: 1 }],
    ...over,
  });
  const purchaseBody = (over: object = {}) => ({
    supplier_id: ids.supplier,
    store_id: ids.home,
    purchase_date: '2026-01-05',
    items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 2, unit_price_cents: 60 }],
    ...over,
  });
  const transferBody = (from = ids.home, to = ids.other) => ({
    from_store_id: from,
    to_store_id: to,
    items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 1 }],
  });
  const float = { usd: [{ value: 100, count: 5 }], khr: [] };
  const comboBody = () => ({
    name_en: `Walk pair ${unique()}`,
    name_kh: 'គូដើរ',
    sku: `WALK-PAIR-${serial}`,
    selling_price_cents: 180,
    items: [{ product_id: ids.product, quantity: 2 }],
  });
  const priceBody = () => ({ scope: 'category', category_id: ids.category, off_bp: 500, min_quantity: 2 + serial++ });

  beforeAll(async () => {
    admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
    ids.home = await createStore(ctx.db, 'WALKHOME');
    ids.other = await createStore(ctx.db, 'WALKOTHER');
    ids.walkIn = (
      await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
    ).id;
    ids.category = (await made(admin, 'POST', '/api/categories', { name_en: 'Walk', name_kh: 'ដើរ' })).id;
    ids.unit = (await made(admin, 'POST', '/api/units', { name_en: 'Jar', name_kh: 'ពាង', short_name: 'jar' })).id;
    ids.product = (
      await made(admin, 'POST', '/api/products', {
        name_en: 'Walk water',
        name_kh: 'ទឹកដើរ',
        sku: 'WALK-1',
        category_id: ids.category,
        unit_id: ids.unit,
        price_usd_cents: 100,
        cost_usd_cents: 60,
        taxable: false,
      })
    ).id;
    ids.supplier = (await made(admin, 'POST', '/api/suppliers', { name: 'Walk supplies' })).id;
    ids.customer = (
      await made(admin, 'POST', '/api/customers', {
        name: 'Walk shop',
        credit_limit_cents: 1_000_000,
        payment_terms_days: 30,
      })
    ).id;
    for (const store of [ids.home, ids.other]) {
      await made(admin, 'POST', '/api/stocks/adjustments', {
        store_id: store,
        reason: 'found',
        items: [{ product_id: ids.product, quantity: 1000 }],
      });
    }
    // what the customer owes at the home store, and what the depot owes the supplier there
    await made(
      admin,
      'POST',
      '/api/orders',
      sale({ customer_id: ids.customer, items: [{ product_id: ids.product, quantity: 20 }] }),
    );
    await made(
      admin,
      'POST',
      '/api/purchases',
      purchaseBody({ items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 20, unit_price_cents: 60 }] }),
    );
    ids.customerPayment = (
      await made(admin, 'POST', `/api/customers/${ids.customer}/payments`, {
        store_id: ids.home,
        method: 'bank_transfer',
        transaction_id: 'WALK-0',
        amount: 1,
      })
    ).id;
  });

  it('walks every document route there is', () => {
    const documentRoutes = ctx.app.accessTable
      .filter(
        (r) =>
          r.method !== 'GET' &&
          /^\/api\/(orders|purchases|stock-transfers|shifts|combos|price-lists|customer-payments)\/:id|^\/api\/(customers|suppliers)\/:id\/payments/.test(
            r.url,
          ),
      )
      .map((r) => `${r.method} ${r.url}`)
      // a KHQR is asked of the bank: it is walked for records of another store only (above)
      .filter((route) => !route.includes('/khqr'));
    expect(documentRoutes.sort()).toEqual([...DOCUMENT_ROUTES].sort());
  });

  /** Every action below, for each default role: a new record for each, made by the administrator. */
  const DOCUMENT_ROUTES = [
    'PUT /api/orders/:id',
    'POST /api/orders/:id/payments',
    'POST /api/orders/:id/cancel',
    'POST /api/orders/:id/returns',
    'POST /api/orders/:id/delivery',
    'PUT /api/purchases/:id',
    'POST /api/purchases/:id/order',
    'POST /api/purchases/:id/receive',
    'POST /api/purchases/:id/payments',
    'POST /api/purchases/:id/cancel',
    'PUT /api/stock-transfers/:id',
    'POST /api/stock-transfers/:id/send',
    'POST /api/stock-transfers/:id/receive',
    'POST /api/stock-transfers/:id/cancel',
    'POST /api/shifts/:id/movements',
    'POST /api/shifts/:id/close',
    'PUT /api/combos/:id',
    'DELETE /api/combos/:id',
    'POST /api/combos/:id/restore',
    'PUT /api/price-lists/:id',
    'DELETE /api/price-lists/:id',
    'POST /api/price-lists/:id/restore',
    'POST /api/customers/:id/payments',
    'POST /api/suppliers/:id/payments',
  ] as const;

  it('answers each action as the policy says, and sends the abilities the route honours', {
    timeout: 240_000,
  }, async () => {
    for (const role of DEFAULT_ROLES) {
      const who = await signIn(role);
      taken = [];

      // orders: a held cart (the administrator's, and the user's own when they sell), a paid sale,
      // an unpaid delivery
      const order = { policy: orderPolicy, detail: '/api/orders/:id' };
      const held = async (headers: Headers) =>
        (await call(headers, 'POST', '/api/orders', sale({ hold: true }))).body.data?.id;
      const paid = async () =>
        made(admin, 'POST', '/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 100 }] }));
      const unpaid = async () =>
        (
          await made(
            admin,
            'POST',
            '/api/orders',
            sale({ customer_id: ids.customer, delivery: { shipping_address: 'Street 2' } }),
          )
        ).id;
      await act(who, {
        ...order,
        route: 'PUT /api/orders/:id',
        action: 'update',
        id: await held(admin),
        body: sale(),
        note: 'another’s cart',
      });
      const own = await held(who.headers);
      if (own)
        await act(who, {
          ...order,
          route: 'PUT /api/orders/:id',
          action: 'update',
          id: own,
          // paid at checkout: the walk-in customer has no credit (issue 26)
          body: sale({ payments: [{ method: 'cash_usd', amount: 1000 }] }),
          note: 'own cart',
        });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/payments',
        action: 'pay',
        id: await unpaid(),
        body: { payments: [{ method: 'cash_usd', amount: 100 }] },
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/cancel',
        action: 'cancel',
        id: (await paid()).id,
        body: {},
        note: 'paid',
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/cancel',
        action: 'cancel',
        id: await unpaid(),
        body: {},
        note: 'unpaid',
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/cancel',
        action: 'cancel',
        id: await held(admin),
        body: {},
        note: 'another’s cart',
      });
      const sold = await paid();
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/returns',
        action: 'return',
        id: sold.id,
        body: { items: [{ order_item_id: sold.items[0].id, quantity: 1 }], refund_method: 'cash_usd' },
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/delivery',
        action: 'deliver',
        id: await unpaid(),
        body: { status: 'preparing_done' },
      });

      // purchases: a draft and an order
      const purchase = { policy: purchasePolicy, detail: '/api/purchases/:id' };
      const draft = async () => (await made(admin, 'POST', '/api/purchases', purchaseBody({ ordered: false }))).id;
      const ordered = async () => made(admin, 'POST', '/api/purchases', purchaseBody());
      await act(who, {
        ...purchase,
        route: 'PUT /api/purchases/:id',
        action: 'update',
        id: await draft(),
        body: purchaseBody({ ordered: false }),
      });
      await act(who, { ...purchase, route: 'POST /api/purchases/:id/order', action: 'order', id: await draft() });
      const toReceive = await ordered();
      await act(who, {
        ...purchase,
        route: 'POST /api/purchases/:id/receive',
        action: 'receive',
        id: toReceive.id,
        body: { items: [{ item_id: toReceive.items[0].id, quantity: 1 }] },
      });
      await act(who, {
        ...purchase,
        route: 'POST /api/purchases/:id/payments',
        action: 'pay',
        id: (await ordered()).id,
        body: { amount_cents: 10, method: 'cash_usd', paid_at: '2026-01-05' },
      });
      await act(who, {
        ...purchase,
        route: 'POST /api/purchases/:id/cancel',
        action: 'cancel',
        id: (await ordered()).id,
      });

      // transfers: out of the home store (a draft), and into it (sent from the other store)
      const transfer = { policy: transferPolicy, detail: '/api/stock-transfers/:id' };
      const out = async () => (await made(admin, 'POST', '/api/stock-transfers', transferBody())).id;
      await act(who, {
        ...transfer,
        route: 'PUT /api/stock-transfers/:id',
        action: 'update',
        id: await out(),
        body: transferBody(),
      });
      await act(who, { ...transfer, route: 'POST /api/stock-transfers/:id/send', action: 'send', id: await out() });
      await act(who, { ...transfer, route: 'POST /api/stock-transfers/:id/cancel', action: 'cancel', id: await out() });
      const inbound = (await made(admin, 'POST', '/api/stock-transfers', transferBody(ids.other, ids.home))).id;
      await made(admin, 'POST', `/api/stock-transfers/${inbound}/send`);
      await act(who, { ...transfer, route: 'POST /api/stock-transfers/:id/receive', action: 'receive', id: inbound });

      // shifts: a cashier's of the home store, and the user's own when they may open one
      const shift = { policy: shiftPolicy, detail: '/api/shifts/:id' };
      const cashier = await signIn(DEFAULT_ROLES.find((r) => r.name === 'cashier') as (typeof DEFAULT_ROLES)[number]);
      const open = async (headers: Headers) =>
        (await call(headers, 'POST', '/api/shifts', { store_id: ids.home, till: `Walk ${unique()}`, float })).body.data
          ?.id;
      const shifts: [number | undefined, string][] = [
        [await open(cashier.headers), 'a cashier’s'],
        [await open(who.headers), 'own'],
      ];
      for (const [id, note] of shifts) {
        if (!id) continue;
        await act(who, {
          ...shift,
          route: 'POST /api/shifts/:id/movements',
          action: 'move',
          id,
          body: { kind: 'pay_in', currency: 'usd', amount: 100, reason: 'change for the till' },
          note,
        });
        const movedIn = (await made(admin, 'GET', `/api/shifts/${id}`)).usd.pay_ins;
        await act(who, {
          ...shift,
          route: 'POST /api/shifts/:id/close',
          action: 'close',
          id,
          body: { counted: { usd: [{ value: 100, count: 5 + movedIn / 100 }], khr: [] } },
          note,
        });
      }

      // combos: a live one and a deleted one
      const combo = { policy: comboPolicy, detail: '/api/combos/:id' };
      const live = async () => (await made(admin, 'POST', '/api/combos', comboBody())).id;
      await act(who, { ...combo, route: 'PUT /api/combos/:id', action: 'update', id: await live(), body: comboBody() });
      await act(who, { ...combo, route: 'DELETE /api/combos/:id', action: 'delete', id: await live() });
      const gone = await live();
      await made(admin, 'DELETE', `/api/combos/${gone}`);
      await act(who, {
        ...combo,
        route: 'POST /api/combos/:id/restore',
        action: 'restore',
        id: gone,
        facts: { deleted_at: 'deleted' },
      });

      // price lists: no abilities; writing one needs prices.update (priceListPolicy)
      const priced = async () => (await made(admin, 'POST', '/api/price-lists', priceBody())).id;
      const prices = { check: (actor: Actor) => priceListPolicy.authorize(actor) };
      await act(who, { ...prices, route: 'PUT /api/price-lists/:id', id: await priced(), body: priceBody() });
      await act(who, { ...prices, route: 'DELETE /api/price-lists/:id', id: await priced() });
      const unlisted = await priced();
      await made(admin, 'DELETE', `/api/price-lists/${unlisted}`);
      await act(who, { ...prices, route: 'POST /api/price-lists/:id/restore', id: unlisted });

      // payments on account: a customer's, taken in the home store; a supplier's, over its purchases
      await act(who, {
        route: 'POST /api/customers/:id/payments',
        id: ids.customer,
        body: { store_id: ids.home, method: 'bank_transfer', transaction_id: `WALK-${unique()}`, amount: 1 },
        check: (actor) => assertStoreInput(actor, 'store_id', ids.home),
      });
      await act(who, {
        route: 'POST /api/suppliers/:id/payments',
        id: ids.supplier,
        body: { amount_cents: 1, method: 'bank_transfer', paid_at: '2026-01-05' },
        check: (actor) => assertPaysSuppliers(actor),
      });
      // each document action again, on its record as the walk left it
      for (const step of taken.filter((step) => !step.facts)) await act(who, step, true);

      // a payment on account has no action; who sees it is customerPaymentPolicy's
      const payment = await call(who.headers, 'GET', `/api/customer-payments/${ids.customerPayment}`);
      const facts = await made(admin, 'GET', `/api/customer-payments/${ids.customerPayment}`);
      const label = `${role.name} GET /api/customer-payments/:id`;
      if (!who.holds(accessOf('GET /api/customer-payments/:id'))) expect(payment.status, label).toBe(403);
      else if (!customerPaymentPolicy.visible(who.actor, facts)) expect(payment.status, label).toBe(404);
      else {
        expect(payment.status, label).toBe(200);
        expect(payment.body.data.abilities, label).toEqual(customerPaymentPolicy.abilities(who.actor, facts));
      }
    }
    expect([...walked].sort()).toEqual([...DOCUMENT_ROUTES].sort());
  });
});
