import { afterEach, describe, expect, it, vi } from 'vitest';
import { FieldError } from '../http/errors.ts';
import { authService } from '../modules/auth/auth.service.ts';
import { LoginThrottle } from '../modules/auth/login-throttle.ts';
import { createUser, useTestApp } from '../test/harness.ts';
import { approvalService } from './approval.ts';

const ctx = useTestApp();
afterEach(() => {
  vi.useRealTimers();
});

/** The approval check on its own throttle (the one sign-in uses: authService's). */
function approvals() {
  return approvalService(authService(ctx.db, new LoginThrottle()));
}

describe('a manager’s approval at the till', () => {
  it('is not locked out by ten bad approvals at another till: a known address still approves', async () => {
    const manager = await createUser(ctx.db, { roles: ['manager'] });
    const check = approvals();
    // the manager once signed in from their own till
    await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.8.0.2',
      payload: { name: manager.name, password: manager.password },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 10; i++) {
      await expect(check.identify({ name: manager.name, password: 'guess' }, '10.8.0.66')).rejects.toBeInstanceOf(
        FieldError,
      );
      // past the name's growing delay (a minute at most), inside the window
      vi.setSystemTime(Date.now() + 61_000);
    }
    const approver = await check.identify({ name: manager.name, password: manager.password }, '10.8.0.2');
    expect(approver?.userId).toBe(manager.id);
    // the till the guesses came from stays refused (the limit per name and address)
    await expect(check.identify({ name: manager.name, password: manager.password }, '10.8.0.66')).rejects.toMatchObject(
      { statusCode: 429 },
    );
  });

  it('refuses a temporary password (reset by an administrator, not changed yet)', async () => {
    const manager = await createUser(ctx.db, { roles: ['manager'] });
    await ctx.db.updateTable('users').set({ must_change_password: 1 }).where('id', '=', manager.id).execute();
    const refused = await approvals()
      .identify({ name: manager.name, password: manager.password }, '10.8.1.1')
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(FieldError);
    expect((refused as FieldError).fields).toEqual({ approval: [{ key: 'approval.temporary_password' }] });
  });
});
