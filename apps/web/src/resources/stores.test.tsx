import { NO_KHQR, type Store } from '@depot/contracts';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer, stamp } from '../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

const STORES = ['list', 'view', 'create', 'update', 'delete', 'restore'].map((action) => `stores.${action}`);

const store = (payee: boolean): Store => ({
  id: 5,
  name: 'Kampot depot',
  code: 'KP-01',
  phone: null,
  address: null,
  village_id: null,
  location: null,
  location_kh: null,
  ...NO_KHQR,
  khqr_account_id: 'depot_kp@aclb',
  khqr_merchant_name: 'Depot Kampot',
  khqr_merchant_city: 'Kampot',
  status: 'active',
  users_count: 0,
  abilities: { payee },
  ...stamp,
});

const input = (name: string) => document.querySelector<HTMLInputElement>(`#record_${name}`);

describe('the store form’s KHQR payee account', { timeout: 20_000 }, () => {
  it('is read-only for whoever the server says may not change it (a manager), the rest of the form is not', async () => {
    mockFetch({ 'GET stores/5': { body: { data: store(false) } }, 'GET printers': { body: listAnswer([]) } });
    signedIn({ permissions: STORES });
    renderApp('/en/stores/update/5');
    await waitFor(() => expect(input('khqr_account_id')?.value).toBe('depot_kp@aclb'));
    for (const name of ['khqr_account_id', 'khqr_merchant_name', 'khqr_merchant_city', 'khqr_merchant_id']) {
      expect(input(name)?.disabled, name).toBe(true);
    }
    expect(input('name')?.disabled).toBe(false);
  });

  it('is editable for an administrator', async () => {
    mockFetch({ 'GET stores/5': { body: { data: store(true) } }, 'GET printers': { body: listAnswer([]) } });
    signedIn({ permissions: STORES });
    renderApp('/en/stores/update/5');
    await waitFor(() => expect(input('khqr_account_id')?.value).toBe('depot_kp@aclb'));
    expect(input('khqr_account_id')?.disabled).toBe(false);
  });
});
