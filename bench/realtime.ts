/**
 * Real-time fan-out: N sockets held on one channel, one event sent to all of them. Measured twice
 * in the same run, on the same machine, with the same client: against a bare `ws` server that
 * sends one ready-made message to every socket (the floor: what the machine and the WebSocket
 * library can do), and against Depot (an HTTP request whose handler broadcasts through the
 * embedded Pusher endpoint to a private channel). The client runs in this process on the same
 * cores, so the timings bound both servers alike; the server's CPU per delivery is its own cost.
 * Prints figures; asserts nothing.
 *
 *   npm run bench:realtime                      # 2,000 sockets, 30 rounds
 *   npm run bench:realtime -- --sockets 5000 --rounds 50
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort, processStats, type RunningServer, startServer } from './server.ts';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '30' },
    burst: { type: 'string', default: '50' },
    'floor-server': { type: 'string' },
  },
});
const SOCKETS = Number(values.sockets);
const ROUNDS = Number(values.rounds);
const BURST = Number(values.burst);
const KEY = 'bench-key';
const SECRET = 'bench-secret-0123456789abcdef';
const PASSWORD = 'bench-password-1';

/** The floor: a bare ws server; POST /fire sends one message to every socket. */
function floorServer(port: number) {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  const hello = JSON.stringify({ event: 'pusher:connection_established', data: '{"socket_id":"1.1"}' });
  wss.on('connection', (ws) => ws.send(hello));
  const message = Buffer.from(JSON.stringify({ event: 'Bench', channel: 'bench', data: '{"unread":0}' }));
  server.on('request', (request, response) => {
    for (const ws of wss.clients) ws.send(message, { binary: false });
    response.writeHead(200).end('{}');
    request.resume();
  });
  server.listen(port, '127.0.0.1', () => console.log('floor ready'));
}

if (values['floor-server']) {
  floorServer(Number(values['floor-server']));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

interface Target {
  name: string;
  wsUrl: string;
  /** Joins a socket to the channel the trigger broadcasts on. */
  join(ws: WebSocket, socketId: string): void;
  trigger(): Promise<void>;
  cpuMs(): number;
  rssKb(): number;
}

/** Opens the sockets and joins them; resolves with a counter of deliveries. */
async function connectAll(target: Target) {
  const sockets: WebSocket[] = [];
  let delivered = 0;
  let waiting: { count: number; resolve: () => void } | null = null;
  const started = performance.now();
  const batch = 200;
  for (let i = 0; i < SOCKETS; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, SOCKETS - i) }, async () => {
        const ws = new WebSocket(target.wsUrl, { perMessageDeflate: false });
        sockets.push(ws);
        await new Promise<void>((resolve, reject) => {
          ws.once('error', reject);
          ws.on('message', (raw) => {
            const text = raw.toString();
            if (text.includes('connection_established')) {
              const socketId = JSON.parse(JSON.parse(text).data).socket_id as string;
              target.join(ws, socketId);
              if (target.name.startsWith('floor')) resolve();
              return;
            }
            if (text.includes('subscription_succeeded')) return resolve();
            if (text.includes('pusher:ping')) return ws.send('{"event":"pusher:pong","data":{}}');
            delivered += 1;
            if (waiting && delivered >= waiting.count) {
              const done = waiting;
              waiting = null;
              done.resolve();
            }
          });
        });
      }),
    );
  }
  const connectMs = performance.now() - started;
  return {
    sockets,
    connectMs,
    /** Resolves when `count` more deliveries have arrived. */
    until(count: number) {
      const goal = delivered + count;
      return new Promise<void>((resolve) => {
        if (delivered >= goal) return resolve();
        waiting = { count: goal, resolve };
      });
    },
  };
}

interface Figures {
  name: string;
  connectPerSecond: number;
  rssPerSocketKb: number;
  lastSocketMs: { p50: number; p95: number };
  burstPerSecond: number;
  cpuUsPerDelivery: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(target: Target): Promise<Figures> {
  const rssBefore = target.rssKb();
  const held = await connectAll(target);
  const rssAfter = target.rssKb();
  // warm-up: JIT and buffers in the same state for both targets
  for (let i = 0; i < 5; i++) {
    const arrived = held.until(SOCKETS);
    await target.trigger();
    await arrived;
  }
  const times: number[] = [];
  const cpuBefore = target.cpuMs();
  for (let i = 0; i < ROUNDS; i++) {
    const arrived = held.until(SOCKETS);
    const t0 = performance.now();
    await target.trigger();
    await arrived;
    times.push(performance.now() - t0);
  }
  // events one after another without waiting: deliveries a second, sustained
  const arrived = held.until(SOCKETS * BURST);
  const t0 = performance.now();
  for (let i = 0; i < BURST; i++) await target.trigger();
  await arrived;
  const burstMs = performance.now() - t0;
  const cpuMs = target.cpuMs() - cpuBefore;
  for (const ws of held.sockets) ws.terminate();
  times.sort((a, b) => a - b);
  return {
    name: target.name,
    connectPerSecond: (SOCKETS / held.connectMs) * 1000,
    rssPerSocketKb: (rssAfter - rssBefore) / SOCKETS,
    lastSocketMs: { p50: quantile(times, 0.5), p95: quantile(times, 0.95) },
    burstPerSecond: ((SOCKETS * BURST) / burstMs) * 1000,
    cpuUsPerDelivery: (cpuMs * 1000) / (SOCKETS * (ROUNDS + BURST)),
  };
}

async function floorTarget(): Promise<{ target: Target; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--floor-server', String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => child.stdout?.on('data', (d: Buffer) => d.includes('floor ready') && resolve()));
  const stat = processStats(child.pid as number);
  const agent = new http.Agent({ keepAlive: true });
  return {
    target: {
      name: 'floor: bare ws server',
      wsUrl: `ws://127.0.0.1:${port}/`,
      join() {},
      trigger: () => post(`http://127.0.0.1:${port}/fire`, {}, agent),
      ...stat,
    },
    async stop() {
      child.kill('SIGTERM');
      agent.destroy();
    },
  };
}

function post(url: string, headers: Record<string, string>, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers, agent }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

async function depotTarget(): Promise<{ target: Target; server: RunningServer; stop: () => Promise<void> }> {
  const server = await startServer({
    adminPassword: PASSWORD,
    env: { PUSHER_APP_KEY: KEY, PUSHER_APP_SECRET: SECRET, REALTIME_MAX_CONNECTIONS: String(SOCKETS + 100) },
  });
  const login = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'admin', password: PASSWORD }),
  });
  const { token, user_info } = (await login.json()) as { token: string; user_info: { id: number } };
  const channel = `private-App.Models.User.${user_info.id}`;
  const agent = new http.Agent({ keepAlive: true });
  return {
    server,
    target: {
      name: 'Depot: POST /api/notifications/read-all → broadcast',
      wsUrl: `ws://127.0.0.1:${server.port}/app/${KEY}?protocol=7&client=js&version=8.6.0`,
      join(ws, socketId) {
        // a socket signs in as its user first (as /broadcasting/user-auth signs it); the subscription waits for it
        const userData = JSON.stringify({ id: String(user_info.id) });
        const signin = `${KEY}:${createHmac('sha256', SECRET).update(`${socketId}::user::${userData}`).digest('hex')}`;
        ws.send(JSON.stringify({ event: 'pusher:signin', data: { auth: signin, user_data: userData } }));
        const auth = `${KEY}:${createHmac('sha256', SECRET).update(`${socketId}:${channel}`).digest('hex')}`;
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
      },
      trigger: () => post(`${server.url}/api/notifications/read-all`, { authorization: `Bearer ${token}` }, agent),
      cpuMs: () => server.cpuMs(),
      rssKb: () => server.rssKb(),
    },
    async stop() {
      agent.destroy();
      await server.stop();
    },
  };
}

async function main() {
  const floor = await floorTarget();
  let figures: Figures[];
  try {
    figures = [await measure(floor.target)];
  } finally {
    await floor.stop();
  }
  const depot = await depotTarget();
  try {
    figures.push(await measure(depot.target));
  } finally {
    await depot.stop();
  }
  const [base] = figures;
  console.log(`\nDepot real-time fan-out: ${SOCKETS} sockets on one channel, ${ROUNDS} rounds, bursts of ${BURST}\n`);
  console.table(
    figures.map((f) => ({
      target: f.name,
      'connects/s': Math.round(f.connectPerSecond),
      'RSS kB/socket': f.rssPerSocketKb.toFixed(1),
      'last socket p50 ms': f.lastSocketMs.p50.toFixed(1),
      'last socket p95 ms': f.lastSocketMs.p95.toFixed(1),
      'deliveries/s (burst)': Math.round(f.burstPerSecond),
      'of floor': `${((f.burstPerSecond / base.burstPerSecond) * 100).toFixed(1)} %`,
      'server CPU µs/delivery': f.cpuUsPerDelivery.toFixed(2),
      // the server's own cost: unlike the timings, not bound by the client sharing the cores
      'CPU of floor': `${((f.cpuUsPerDelivery / base.cpuUsPerDelivery) * 100).toFixed(0)} %`,
    })),
  );
}
