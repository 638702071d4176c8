import { describe, expect, it } from 'vitest';
import { mockFetch, signedIn } from '../test/render.tsx';
import { covers } from './access.tsx';
import { reloadAccess } from './permissions.ts';
import { session } from './session.ts';

const me = {
  id: 1,
  name: 'admin',
  full_name: 'Sok Dara',
  email: null,
  phone: null,
  position: null,
  status: 'active',
  media: [],
  store: { id: 1, name: 'Phnom Penh Depot', code: 'PP01' },
  roles: ['manager'],
  role_details: [{ name: 'manager', group: 'system', label_en: 'Manager', label_kh: 'អ្នកគ្រប់គ្រង' }],
  permissions: ['dashboards.view', 'stocks.create'],
  landing: null,
};

describe('what the user may do, read again when the server says it changed', () => {
  it('keeps the stores the user now covers: the forms offer them without a sign-out', async () => {
    signedIn({ coverage: { all: false, store_ids: [1] } });
    expect(covers(2)).toBe(false);
    mockFetch({ 'GET me': { body: { data: { ...me, coverage: { all: false, store_ids: [1, 2] } } } } });
    await reloadAccess();
    expect(session.get().coverage).toEqual({ all: false, store_ids: [1, 2] });
    expect(session.get().permissions).toEqual(['dashboards.view', 'stocks.create']);
    expect(covers(2)).toBe(true);
    expect(covers(3)).toBe(false);
  });
});
