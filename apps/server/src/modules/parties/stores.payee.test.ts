import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/**
 * A store's KHQR payee account is where customers' money goes: changing it needs an administrator
 * (not only stores.update, which a manager holds), and it is audited; so are a store's printers.
 */
const ctx = useTestApp();
let admin: Record<string, string>;
let manager: Record<string, string>;
let storeId: number;

async function send(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  as: Record<string, string>,
  payload?: object,
) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

const auditOf = (action: string) =>
  ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

const payee = {
  khqr_account_id: 'depot_pp@aclb',
  khqr_merchant_name: 'Depot Phnom Penh',
  khqr_merchant_city: 'Phnom Penh',
};

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const user = await createUser(ctx.db, { roles: ['manager'] });
  manager = { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
  storeId = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
});

async function storeBody(id: number, as: Record<string, string>) {
  const { body } = await send('GET', `/api/stores/${id}`, as);
  const { name, code, phone, address, village_id, status } = body.data;
  return {
    body: { name, code, phone, address, village_id, status },
    payee: {
      khqr_account_id: body.data.khqr_account_id,
      khqr_merchant_name: body.data.khqr_merchant_name,
      khqr_merchant_city: body.data.khqr_merchant_city,
    },
    abilities: body.data.abilities,
  };
}

describe('a store’s KHQR payee account', () => {
  it('is changed by an administrator, and the change is audited with the account before and after', async () => {
    const { body } = await storeBody(storeId, admin);
    const res = await send('PUT', `/api/stores/${storeId}`, admin, { ...body, ...payee });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lines = await auditOf('store.payee');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ subject_type: 'store', subject_id: storeId, user_name: 'admin' });
    expect(JSON.parse(lines[0].after as string)).toMatchObject({ khqr_account_id: 'depot_pp@aclb' });
    expect(JSON.parse(lines[0].before as string)).toMatchObject({ khqr_account_id: null });
  });

  it('is refused to a manager who may update the store (403, nothing changes), who may still edit the rest', async () => {
    const before = await storeBody(storeId, manager);
    expect(before.abilities).toEqual({ payee: false });
    const res = await send('PUT', `/api/stores/${storeId}`, manager, {
      ...before.body,
      ...before.payee,
      khqr_account_id: 'thief@aclb',
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only an administrator may change the account a store’s KHQR payments go to.');
    expect((await storeBody(storeId, admin)).payee.khqr_account_id).toBe('depot_pp@aclb');
    // the rest of the store, with the account as it is, the manager may change
    const renamed = await send('PUT', `/api/stores/${storeId}`, manager, {
      ...before.body,
      ...before.payee,
      phone: '012 345 678',
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await auditOf('store.payee')).length).toBe(1);
    // nor may a manager make a store with an account
    const made = await send('POST', '/api/stores', manager, { name: 'Kampot', code: 'KP01', ...payee });
    expect(made.status).toBe(403);
    expect((await storeBody(storeId, admin)).abilities).toEqual({ payee: true });
  });
});

describe('a store’s printers', () => {
  it('are audited when added, changed, deleted and restored', async () => {
    const made = await send('POST', '/api/printers', manager, {
      store_id: storeId,
      name: 'Front till',
      host: '192.168.1.50',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.id;
    const changed = await send('PUT', `/api/printers/${id}`, manager, {
      store_id: storeId,
      name: 'Front till',
      host: '192.168.1.51',
      port: 9101,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await send('DELETE', `/api/printers/${id}`, manager)).status).toBe(200);
    expect((await send('POST', `/api/printers/${id}/restore`, manager)).status).toBe(200);
    const lines = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject_type', '=', 'printer')
      .where('subject_id', '=', id)
      .orderBy('id')
      .execute();
    expect(lines.map((l) => l.action)).toEqual([
      'printer.created',
      'printer.updated',
      'printer.deleted',
      'printer.restored',
    ]);
    expect(JSON.parse(lines[0].after as string)).toMatchObject({ host: '192.168.1.50', port: 9100 });
    expect(JSON.parse(lines[1].before as string)).toEqual({ host: '192.168.1.50', port: 9100 });
    expect(JSON.parse(lines[1].after as string)).toEqual({ host: '192.168.1.51', port: 9101 });
  });
});
