import { DEFAULT_SETTINGS } from '@depot/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePusher, REVERB_CONFIG } from '../test/fakePusher.ts';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { echoOptions, RealtimeConfigError } from './realtime.ts';
import { session } from './session.ts';

vi.mock('pusher-js', async () => (await import('../test/fakePusher.ts')).fakePusherModule);

const page = { hostname: 'depot.example', port: '', protocol: 'https:' };
const headers = () => ({});

describe('the broadcaster configuration (spec sections 5, 8 and 9)', () => {
  it('connects to Depot’s own endpoint on the page’s host, over WebSockets only, with the spec’s timeouts', () => {
    expect(echoOptions(REVERB_CONFIG, page, headers)).toMatchObject({
      broadcaster: 'reverb',
      key: 'app-key',
      wsHost: 'depot.example',
      wsPort: 443,
      wssPort: 443,
      forceTLS: true,
      enabledTransports: ['ws', 'wss'],
      activityTimeout: 120_000,
      pongTimeout: 30_000,
      unavailableTimeout: 10_000,
      channelAuthorization: { endpoint: '/broadcasting/auth', transport: 'ajax' },
    });
    const plain = echoOptions(REVERB_CONFIG, { hostname: '10.0.0.5', port: '3000', protocol: 'http:' }, headers);
    expect(plain).toMatchObject({ wsHost: '10.0.0.5', wsPort: 3000, forceTLS: false });
  });

  it('takes an external Pusher over https with a key and a cluster, and refuses it otherwise', () => {
    const pusher = { ...REVERB_CONFIG, broadcaster: 'pusher', scheme: 'https' as const, cluster: 'ap1' };
    expect(echoOptions(pusher, page, headers)).toMatchObject({ broadcaster: 'pusher', cluster: 'ap1', forceTLS: true });
    expect(() => echoOptions({ ...pusher, scheme: 'http' }, page, headers)).toThrow(
      'Pusher requires a secure connection',
    );
    expect(() => echoOptions({ ...pusher, cluster: null }, page, headers)).toThrow('Pusher requires a cluster');
    expect(() => echoOptions({ ...pusher, key: '' }, page, headers)).toThrow('Pusher requires an app key');
  });

  it('refuses a broadcaster it does not support', () => {
    expect(() => echoOptions({ ...REVERB_CONFIG, broadcaster: 'socket.io' }, page, headers)).toThrow(
      new RealtimeConfigError('Unsupported broadcaster: socket.io'),
    );
  });
});

describe('the connection in the signed-in layout', { timeout: 30_000 }, () => {
  beforeEach(() => {
    window.__DEPOT__ = { apiBase: '/api/', broadcasting: REVERB_CONFIG };
    FakePusher.instances = [];
  });
  afterEach(() => {
    delete window.__DEPOT__;
  });

  const signIn = () => signedIn({ permissions: ['dashboards.view', 'notifications.list', 'notifications.update'] });

  it('shows its state in the header, and after a reconnect reads the screen’s data again', async () => {
    const { calls } = mockFetch({ 'GET notifications/unread-count': { body: { data: { unread: 0 } } } });
    signIn();
    renderApp('/en/dashboards');
    const state = await screen.findByTestId('connection-state');
    await waitFor(() => expect(FakePusher.instances).toHaveLength(1));
    const pusher = FakePusher.latest();
    await waitFor(() => expect(state.dataset.state).toBe('connecting'));
    expect(state.textContent).toBe('Connecting…');
    expect(state.getAttribute('role')).toBe('status');

    expect(pusher.options).toMatchObject({ wsHost: window.location.hostname, enabledTransports: ['ws', 'wss'] });
    act(() => pusher.connection.move('connected'));
    expect(state.textContent).toBe('Connected');
    expect(state.getAttribute('aria-label')).toBe(
      'Live updates: Connected. Screens update by themselves when something changes.',
    );
    await screen.findByTestId('dashboard-user');
    const loaded = calls('GET dashboard').length;

    act(() => pusher.connection.move('unavailable'));
    expect(state.textContent).toBe('Unavailable');
    act(() => pusher.connection.move('connecting'));
    act(() => pusher.connection.move('connected'));
    await waitFor(() => expect(calls('GET dashboard').length).toBeGreaterThan(loaded));
    expect(FakePusher.instances).toHaveLength(1);
  });

  it('reads again, once connected, what the page read before: a setting saved meanwhile shows', async () => {
    let title = 'Before';
    mockFetch({
      'GET notifications/unread-count': { body: { data: { unread: 0 } } },
      'GET settings/public': () => ({ body: { data: { ...DEFAULT_SETTINGS, system_title: title } } }),
    });
    signIn();
    renderApp('/en/dashboards');
    await waitFor(() => expect(screen.getByTestId('app-title').textContent).toBe('Before'));
    await waitFor(() => expect(FakePusher.instances).toHaveLength(1));
    // saved by an administrator after this page read the settings, before its socket listened
    title = 'After';
    act(() => FakePusher.latest().connection.move('connected'));
    await waitFor(() => expect(screen.getByTestId('app-title').textContent).toBe('After'));
  });

  it('shows offline while the browser has no network, even with the socket still open, and connected again after', async () => {
    const { calls } = mockFetch({ 'GET notifications/unread-count': { body: { data: { unread: 0 } } } });
    signIn();
    renderApp('/en/dashboards');
    const state = await screen.findByTestId('connection-state');
    await waitFor(() => expect(FakePusher.instances).toHaveLength(1));
    const pusher = FakePusher.latest();
    act(() => pusher.connection.move('connected'));
    await screen.findByTestId('dashboard-user');
    const loaded = calls('GET dashboard').length;
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(state.dataset.state).toBe('offline');
    expect(state.textContent).toBe('Offline');
    act(() => void window.dispatchEvent(new Event('online')));
    expect(state.textContent).toBe('Connected');
    await waitFor(() => expect(calls('GET dashboard').length).toBeGreaterThan(loaded));
    act(() => pusher.connection.move('connecting'));
    expect(state.textContent).toBe('Reconnecting…');
    act(() => pusher.connection.move('connected'));
  });

  it('authorizes channels with the bearer token of the moment', async () => {
    mockFetch();
    signIn();
    renderApp('/en/dashboards');
    await screen.findByTestId('connection-state');
    await waitFor(() => expect(FakePusher.instances).toHaveLength(1));
    const provider = (FakePusher.latest().options.channelAuthorization as { headersProvider: () => unknown })
      .headersProvider;
    expect(provider()).toEqual({ Accept: 'application/json', Authorization: 'Bearer token-1' });
    act(() => session.renew({ status: 'success', token: 'token-2', refresh_token: 'r-2', expires_in: 3600 }));
    expect(provider()).toEqual({ Accept: 'application/json', Authorization: 'Bearer token-2' });
  });

  it('signs the socket in as its user (pusher-js signin, /broadcasting/user-auth) with the bearer token of the moment', async () => {
    mockFetch();
    signIn();
    renderApp('/en/dashboards');
    await screen.findByTestId('connection-state');
    await waitFor(() => expect(FakePusher.instances).toHaveLength(1));
    const fake = FakePusher.latest();
    expect(fake.signins).toBe(1);
    const auth = fake.options.userAuthentication as {
      endpoint: string;
      transport: string;
      headersProvider: () => unknown;
    };
    expect(auth).toMatchObject({ endpoint: '/broadcasting/user-auth', transport: 'ajax' });
    expect(auth.headersProvider()).toEqual({ Accept: 'application/json', Authorization: 'Bearer token-1' });
  });

  it('keeps the bell live: a notification arrives, or another tab reads them', async () => {
    let unread = 1;
    mockFetch({ 'GET notifications/unread-count': () => ({ body: { data: { unread } } }) });
    signIn();
    renderApp('/en/dashboards');
    const bell = await screen.findByTestId('notification-bell');
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications: 1 unread'));
    const pusher = FakePusher.latest();
    act(() => pusher.connection.move('connected'));
    await waitFor(() => expect(pusher.channel('private-App.Models.User.1')).toBeTruthy());
    const channel = pusher.channel('private-App.Models.User.1');

    unread = 2;
    act(() =>
      channel?.emit('Illuminate\\Notifications\\Events\\BroadcastNotificationCreated', { id: 'x', type: 'low_stock' }),
    );
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications: 2 unread'));
    expect(bell.textContent).toContain('2');

    unread = 0;
    act(() => channel?.emit('App\\Events\\NotificationsUpdated', { unread: 0 }));
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications: 0 unread'));
  });

  it('follows the stores the user covers: their events, and the depot’s, read the screen’s data again', async () => {
    const { calls } = mockFetch({ 'GET broadcasting/channels': { body: { data: { stores: [3] } } } });
    signIn();
    renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    const pusher = FakePusher.latest();
    act(() => pusher.connection.move('connected'));
    await waitFor(() => expect(pusher.channel('private-stores.3')).toBeTruthy());
    await waitFor(() => expect(pusher.channel('private-depot')).toBeTruthy());
    // a store it does not cover is not asked for
    expect(pusher.channel('private-stores.4')).toBeFalsy();

    const loaded = calls('GET dashboard').length;
    act(() => pusher.channel('private-stores.3')?.emit('App\\Events\\StockChanged', { store_id: 3, product_ids: [1] }));
    await waitFor(() => expect(calls('GET dashboard').length).toBe(loaded + 1));
    act(() => pusher.channel('private-depot')?.emit('App\\Events\\ExchangeRateChanged', { rate_khr: 4100 }));
    await waitFor(() => expect(calls('GET dashboard').length).toBe(loaded + 2));
    // an event nobody listens to changes nothing
    act(() => pusher.channel('private-stores.3')?.emit('App\\Events\\Unknown', {}));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls('GET dashboard')).toHaveLength(loaded + 2);
  });

  it('drops the connection at sign-out', async () => {
    mockFetch();
    signIn();
    renderApp('/en/dashboards');
    await screen.findByTestId('connection-state');
    await waitFor(() => expect(FakePusher.instances).toHaveLength(1));
    act(() => session.clear());
    expect(FakePusher.latest().disconnected).toBe(true);
  });

  it('says it failed, in Khmer too, when the configuration cannot work', async () => {
    window.__DEPOT__ = { apiBase: '/api/', broadcasting: { ...REVERB_CONFIG, broadcaster: 'pusher', cluster: 'ap1' } };
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch();
    signIn();
    renderApp('/dashboards');
    const state = await screen.findByTestId('connection-state');
    await waitFor(() => expect(state.dataset.state).toBe('failed'));
    expect(state.textContent).toBe('ភ្ជាប់បរាជ័យ');
    expect(error).toHaveBeenCalledWith('Pusher requires a secure connection');
    expect(FakePusher.instances).toHaveLength(0);
  });
});
