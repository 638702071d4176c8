import type { BroadcastingConfig } from '@depot/contracts';

/**
 * A stand-in for pusher-js in component tests (`vi.mock('pusher-js', () => fakePusherModule)`):
 * laravel-echo drives it as it would the real client, and the test plays the server, moving the
 * connection through its states and delivering events. The real client against the real server
 * is tested on the server side (apps/server/src/realtime).
 */
type Callback = (data: unknown) => void;

class Emitter {
  private readonly handlers = new Map<string, Set<Callback>>();

  bind(event: string, callback: Callback): this {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(callback);
    return this;
  }

  unbind(event?: string, callback?: Callback): this {
    if (!event) this.handlers.clear();
    else if (!callback) this.handlers.delete(event);
    else this.handlers.get(event)?.delete(callback);
    return this;
  }

  bind_global(): this {
    return this;
  }

  unbind_global(): this {
    return this;
  }

  emit(event: string, data?: unknown): void {
    for (const callback of this.handlers.get(event) ?? []) callback(data);
  }

  listeners(event: string): number {
    return this.handlers.get(event)?.size ?? 0;
  }
}

export class FakeChannel extends Emitter {
  subscribed = true;
  constructor(readonly name: string) {
    super();
  }
  trigger(): boolean {
    return true;
  }
}

class FakeConnection extends Emitter {
  state = 'initialized';
  socket_id = '1.1';

  /** What the real client does on every change: `state_change`, then the state's own event. */
  move(next: string): void {
    const previous = this.state;
    this.state = next;
    this.emit('state_change', { previous, current: next });
    this.emit(next);
  }
}

export class FakePusher {
  static instances: FakePusher[] = [];
  readonly connection = new FakeConnection();
  readonly channels = { channels: {} as Record<string, FakeChannel> };
  disconnected = false;
  /** How many times the page asked to sign the socket in as its user (pusher-js `signin`). */
  signins = 0;

  constructor(
    readonly key: string,
    readonly options: Record<string, unknown>,
  ) {
    FakePusher.instances.push(this);
    // pusher-js starts connecting as soon as it is made
    queueMicrotask(() => this.connection.move('connecting'));
  }

  subscribe(name: string): FakeChannel {
    this.channels.channels[name] ??= new FakeChannel(name);
    return this.channels.channels[name];
  }

  unsubscribe(name: string): void {
    delete this.channels.channels[name];
  }

  channel(name: string): FakeChannel | undefined {
    return this.channels.channels[name];
  }

  signin(): void {
    this.signins += 1;
  }

  disconnect(): void {
    this.disconnected = true;
    this.connection.move('disconnected');
  }

  static latest(): FakePusher {
    const last = FakePusher.instances.at(-1);
    if (!last) throw new Error('no connection was made');
    return last;
  }
}

export const fakePusherModule = { default: FakePusher };

/** What the server injects for its own endpoint. */
export const REVERB_CONFIG: BroadcastingConfig = {
  broadcaster: 'reverb',
  key: 'app-key',
  host: null,
  port: null,
  scheme: null,
  cluster: null,
  authEndpoint: '/broadcasting/auth',
};
