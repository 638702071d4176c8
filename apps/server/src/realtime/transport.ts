/**
 * How a message reaches the sockets that should get it. Every message (a server broadcast, a
 * client event, a presence member joining or leaving) is an envelope handed to the transport; the
 * transport hands it to every process's hub, which sends it to its own sockets. Embedded: this
 * process only. Redis: every process subscribed to the app's Redis channel (this one included).
 */
export interface Envelope {
  channels: string[];
  event: string;
  /** A JSON string (server broadcasts, presence) or a client event's data as it came. */
  data: unknown;
  /** The socket that caused it, which does not get it back (a client event's sender, `toOthers()`). */
  except?: string;
  /** On a presence channel, the client event's sender (Pusher adds it so members know who whispered). */
  userId?: unknown;
  /**
   * Not a message for clients: these users' rights changed (disabled, deleted, a store taken away),
   * so every process looks again at the sockets signed in as them and closes those that no longer
   * hold (`channels` is empty).
   */
  recheck?: string[];
  /** With `recheck`: close those users' sockets whatever they listen to (their sessions ended). */
  close?: boolean;
}

/** A presence channel's member: the `user_id` and `user_info` of their signed `channel_data`. */
export interface Member {
  user_id: unknown;
  user_info?: unknown;
}

/**
 * Presence counted per user, not per connection: a user's first connection to a channel adds the
 * member, their last one removes it (several tabs are one member).
 */
export interface PresenceStore {
  /** Counts one more connection of the user; true when it is their first. */
  join(channel: string, userKey: string, member: Member): Promise<boolean>;
  /** Counts one connection fewer; true when it was their last. */
  leave(channel: string, userKey: string): Promise<boolean>;
  members(channel: string): Promise<Map<string, Member>>;
}

export interface Transport {
  readonly presence: PresenceStore;
  /** Starts handing envelopes (this process's and, with Redis, every other's) to `deliver`. */
  start(deliver: (envelope: Envelope) => void): Promise<void>;
  publish(envelope: Envelope): Promise<void>;
  close(): Promise<void>;
}

/** One process's presence, in memory. */
export class MemoryPresence implements PresenceStore {
  private readonly channels = new Map<string, Map<string, { count: number; member: Member }>>();

  async join(channel: string, userKey: string, member: Member): Promise<boolean> {
    let users = this.channels.get(channel);
    if (!users) {
      users = new Map();
      this.channels.set(channel, users);
    }
    const entry = users.get(userKey);
    if (entry) {
      entry.count += 1;
      entry.member = member;
      return false;
    }
    users.set(userKey, { count: 1, member });
    return true;
  }

  async leave(channel: string, userKey: string): Promise<boolean> {
    const users = this.channels.get(channel);
    const entry = users?.get(userKey);
    if (!users || !entry) return false;
    entry.count -= 1;
    if (entry.count > 0) return false;
    users.delete(userKey);
    if (users.size === 0) this.channels.delete(channel);
    return true;
  }

  async members(channel: string): Promise<Map<string, Member>> {
    return new Map([...(this.channels.get(channel) ?? [])].map(([key, entry]) => [key, entry.member]));
  }
}

/** The default: one process, nothing shared. */
export function embeddedTransport(): Transport {
  let deliver: ((envelope: Envelope) => void) | null = null;
  return {
    presence: new MemoryPresence(),
    async start(handler) {
      deliver = handler;
    },
    async publish(envelope) {
      deliver?.(envelope);
    },
    async close() {
      deliver = null;
    },
  };
}
