import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { connectRedis } from '../kit/redis.ts';
import type { Envelope, Member, PresenceStore, Transport } from './transport.ts';

// Presence in three hashes per channel, changed only by these scripts so two processes never count
// the same user twice: `pc` (process|user → that process's connections), `pu` (user → connections
// everywhere), `pi` (user → member). A process that dies leaves its `pc` fields behind; whoever
// sweeps next removes them and announces the members who left with it.
const JOIN = `
redis.call('HINCRBY', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 1)
local total = redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[4])
return total`;

// Returns the member (as stored) when the user's last connection went, nil otherwise.
const LEAVE = `
local field = ARGV[1] .. '|' .. ARGV[2]
local held = tonumber(redis.call('HGET', KEYS[1], field) or '0')
if held <= 0 then return false end
local n = math.min(tonumber(ARGV[3]), held)
if held - n <= 0 then redis.call('HDEL', KEYS[1], field) else redis.call('HINCRBY', KEYS[1], field, -n) end
local total = redis.call('HINCRBY', KEYS[2], ARGV[2], -n)
if total > 0 then return false end
local member = redis.call('HGET', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
if redis.call('HLEN', KEYS[2]) == 0 then redis.call('SREM', KEYS[4], ARGV[4]) end
return member or ''`;

export interface RedisOptions {
  url: string;
  /** Keeps installations sharing one Redis apart (the app key). */
  namespace: string;
  /** A process that has not said it is alive for this long is taken for gone, with its members. */
  nodeTtlMs: number;
  log: FastifyBaseLogger;
}

/**
 * Several processes behind a load balancer: every envelope goes through one Redis pub/sub channel,
 * so a socket on any process gets what any process broadcast; presence members are counted in Redis.
 */
export function redisTransport(options: RedisOptions): Transport {
  const prefix = `depot:rt:${options.namespace}:`;
  const node: string = randomUUID();
  const messages = `${prefix}messages`;
  // two connections of the one connector (kit/redis.ts): commands, and the subscriber's own
  let client: Redis;
  let subscriber: Redis | undefined;
  const keys = (channel: string) => [
    `${prefix}pc:${channel}`,
    `${prefix}pu:${channel}`,
    `${prefix}pi:${channel}`,
    `${prefix}presence-channels`,
  ];
  let timer: NodeJS.Timeout | undefined;

  const leave = async (channel: string, user: string, count: number, owner = node): Promise<Member | null> => {
    const member = (await client.eval(LEAVE, 4, ...keys(channel), owner, user, count, channel)) as string | null;
    if (member === null) return null;
    try {
      return member ? (JSON.parse(member) as Member) : { user_id: user };
    } catch {
      return { user_id: user };
    }
  };

  const presence: PresenceStore = {
    async join(channel, user, member) {
      const total = await client.eval(JOIN, 4, ...keys(channel), node, user, JSON.stringify(member), channel);
      return Number(total) === 1;
    },
    async leave(channel, user) {
      return (await leave(channel, user, 1)) !== null;
    },
    async members(channel) {
      const all = await client.hgetall(`${prefix}pi:${channel}`);
      const members = new Map<string, Member>();
      for (const [user, json] of Object.entries(all)) {
        try {
          members.set(user, JSON.parse(json) as Member);
        } catch {
          // a foreign value: not a member
        }
      }
      return members;
    },
  };

  /** Removes the connections of processes that stopped saying they are alive, announcing who left. */
  async function sweep() {
    const lock = await client.set(`${prefix}sweeping`, node, 'PX', Math.max(500, options.nodeTtlMs / 2), 'NX');
    if (lock !== 'OK') return;
    const alive = new Map<string, boolean>();
    for (const channel of await client.smembers(`${prefix}presence-channels`)) {
      const fields = await client.hgetall(`${prefix}pc:${channel}`);
      for (const [field, count] of Object.entries(fields)) {
        const [owner, user] = [field.slice(0, field.indexOf('|')), field.slice(field.indexOf('|') + 1)];
        if (!alive.has(owner)) alive.set(owner, (await client.exists(`${prefix}node:${owner}`)) === 1);
        if (alive.get(owner)) continue;
        const gone = await leave(channel, user, Number(count), owner);
        if (gone) {
          await client.publish(
            messages,
            JSON.stringify({
              channels: [channel],
              event: 'pusher_internal:member_removed',
              data: JSON.stringify({ user_id: gone.user_id }),
            } satisfies Envelope),
          );
        }
      }
    }
  }

  async function heartbeat() {
    await client.set(`${prefix}node:${node}`, '1', 'PX', options.nodeTtlMs);
    await sweep();
  }

  return {
    presence,
    async start(deliver) {
      client = await connectRedis(options.url, options.log);
      try {
        subscriber = await connectRedis(options.url, options.log);
      } catch (error) {
        client.disconnect();
        throw error;
      }
      await heartbeat();
      subscriber.on('message', (_channel: string, message: string) => {
        try {
          deliver(JSON.parse(message) as Envelope);
        } catch (error) {
          options.log.warn({ err: error }, 'realtime: unreadable message from redis');
        }
      });
      await subscriber.subscribe(messages);
      timer = setInterval(
        () => {
          heartbeat().catch((error: unknown) =>
            options.log.warn({ err: error }, 'realtime: presence heartbeat failed'),
          );
        },
        Math.max(100, Math.floor(options.nodeTtlMs / 3)),
      );
      timer.unref();
    },
    async publish(envelope) {
      await client.publish(messages, JSON.stringify(envelope));
    },
    async close() {
      clearInterval(timer);
      if (!subscriber) return; // never started
      await client.del(`${prefix}node:${node}`).catch(() => {});
      subscriber.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
