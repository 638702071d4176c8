import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
// Ajv and yaml are installed with fastify and its swagger (and vite): used here to read the
// compose file as Docker Compose would, where no container engine runs.
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../config.ts';
import { REPO_ROOT } from '../paths.ts';
import { TEST_DB } from '../test/harness.ts';
import { httpClient } from '../test/http.ts';
import { listBackups } from './backup.ts';

const run = promisify(execFile);
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
/** Variables of the system, not Depot's, that the deployment files may set. */
const SYSTEM_VARIABLES = ['NODE_ENV', 'TZ'];

interface Instruction {
  name: string;
  args: string;
}

/** A Dockerfile's stages: each FROM starts one; lines joined where they end in a backslash. */
function dockerStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    const [, name, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (name.toUpperCase() === 'FROM') stages.push([]);
    stages.at(-1)?.push({ name: name.toUpperCase(), args: args.trim() });
  }
  return stages;
}

/** ENV instructions: `A=1 B="two"` or `A 1`. */
function dockerEnv(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.filter((i) => i.name === 'ENV')) {
    for (const [, key, quoted, plain] of args.matchAll(/(\w+)=(?:"([^"]*)"|(\S*))/g)) env[key] = quoted ?? plain;
  }
  return env;
}

/** Docker Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}, $$. */
function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value
      .replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, rest?: string) => {
        const set = env[name] !== undefined && env[name] !== '';
        if (set) return env[name];
        if (op === '?') throw new Error(`required variable ${name} is missing a value: ${rest}`);
        return op === '-' ? (rest ?? '') : '';
      })
      .replace(/\$\$/g, '$');
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  }
  return value;
}

/** An INI-style unit file: section → key → values (a key may repeat). */
function unitFile(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let section = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1];
      sections[section] = {};
      continue;
    }
    const [key, ...value] = line.split('=');
    sections[section][key] = [...(sections[section][key] ?? []), value.join('=')];
  }
  return sections;
}

function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

const stages = dockerStages(read('Dockerfile'));
const image = stages.at(-1) ?? [];
const instruction = (name: string) => image.filter((i) => i.name === name).map((i) => i.args);
const exec = (name: string) => JSON.parse(instruction(name).at(-1) ?? 'null') as string[];

describe('docs/OPERATIONS.md', () => {
  it('describes every variable Depot reads', () => {
    const doc = read('docs/OPERATIONS.md');
    const missing = CONFIG_VARIABLES.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});

describe('the container image', () => {
  it('is built in stages from Debian, runs as its own user, and starts the built server under tini', () => {
    expect(stages.length).toBeGreaterThan(1);
    const named: string[] = [];
    for (const stage of stages) {
      // each stage starts from Debian's image or from an earlier stage
      const [, base, name] = /^(\S+)(?: AS (\w+))?$/.exec(stage[0].args) ?? [];
      expect([`debian:$\{DEBIAN}`, ...named]).toContain(base);
      if (name) named.push(name);
    }
    expect(read('Dockerfile')).toMatch(/^ARG DEBIAN=trixie-slim$/m);
    expect(read('Dockerfile')).toMatch(/apt-get install [^\n]*\bchromium\b/);
    expect(instruction('USER')).toEqual(['depot']);
    expect(exec('ENTRYPOINT')).toEqual(['/usr/bin/tini', '--']);
    expect(exec('CMD')).toEqual(['node', '--enable-source-maps', 'apps/server/dist/main.js']);
    for (const key of Object.keys(dockerEnv(image))) expect([...CONFIG_VARIABLES, ...SYSTEM_VARIABLES]).toContain(key);
  });

  // The server's start does not depend on the database kind: run once, in the SQLite half.
  describe.runIf(TEST_DB === 'sqlite')('its start command, run here on a copy of the image’s /app', () => {
    let app: string;
    let data: string;
    beforeAll(async () => {
      app = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-image-'));
      data = path.join(app, 'data');
      // what the final stage copies in, from this checkout; the server's bundle built as the build stage builds it
      for (const copy of instruction('COPY')) {
        const [, , target] = /^--from=(\w+) \/app\/(\S+) \.\/(\S+)$/.exec(copy) ?? [];
        expect(target, copy).toBeDefined();
        if (target === 'apps/server/dist') continue;
        if (!fs.existsSync(path.join(REPO_ROOT, target))) continue; // the web app, before `npm run build`
        fs.mkdirSync(path.dirname(path.join(app, target)), { recursive: true });
        fs.symlinkSync(path.join(REPO_ROOT, target), path.join(app, target));
      }
      await run(process.execPath, ['apps/server/build.mjs'], {
        cwd: REPO_ROOT,
        env: { ...process.env, DEPOT_SERVER_DIST: path.join(app, 'apps/server/dist') },
      });
    });
    afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

    it('serves Depot, passes its health check, takes the CLI beside it and stops cleanly on SIGTERM', async () => {
      const env = {
        ...process.env,
        ...dockerEnv(image),
        // the volume's place and a free port on this machine
        DATABASE_URL: `sqlite:${path.join(data, 'depot.sqlite')}`,
        DEPOT_UPLOADS_DIR: path.join(data, 'uploads'),
        HOST: '127.0.0.1',
        PORT: '0',
        DEPOT_ADMIN_PASSWORD: 'image-admin-1',
        LOG_LEVEL: 'warn',
      };
      const [command, ...args] = exec('CMD');
      const server = spawn(command === 'node' ? process.execPath : command, args, { cwd: app, env });
      const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
      try {
        const output: string[] = [];
        const url = await new Promise<string>((resolve, reject) => {
          const take = (chunk: Buffer) => {
            output.push(chunk.toString());
            const started = /Depot is running at http:\/\/localhost:(\d+)/.exec(output.join(''));
            if (started) resolve(`http://127.0.0.1:${started[1]}`);
          };
          server.stdout.on('data', take);
          server.stderr.on('data', take);
          void exited.then((code) => reject(new Error(`exited with ${code}: ${output.join('')}`)));
        });
        const port = new URL(url).port;

        const [, health] = /CMD (\[.*\])$/.exec(instruction('HEALTHCHECK')[0]) ?? [];
        const [checker, ...checkArgs] = JSON.parse(health) as string[];
        const check = spawnSync(checker === 'node' ? process.execPath : checker, checkArgs, {
          env: { ...env, PORT: port },
        });
        expect(check.status).toBe(0);

        const admin = await httpClient(url).signIn('admin', 'image-admin-1');
        expect((await admin.call('GET', '/api/me')).status).toBe(200);
        const cli = await run(process.execPath, ['apps/server/dist/cli.js', 'backup', '--to', path.join(data, 'b')], {
          cwd: app,
          env,
        });
        expect(cli.stdout).toMatch(/^backup: /);
        expect(listBackups(path.join(data, 'b'))).toHaveLength(1);
      } finally {
        server.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    });
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'));
  const secrets = { POSTGRES_PASSWORD: 'pg-secret-1', DEPOT_ADMIN_PASSWORD: 'admin-secret-1' };

  it('is a valid Compose file (the Compose Specification’s schema)', () => {
    const { $schema: _, ...schema } = JSON.parse(read('deploy/compose-spec.json'));
    const validate = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
    expect(validate(interpolate(compose, secrets)), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('refuses to start without its secrets, naming them', () => {
    expect(() => interpolate(compose, { DEPOT_ADMIN_PASSWORD: 'x' })).toThrow(
      'required variable POSTGRES_PASSWORD is missing a value: set POSTGRES_PASSWORD in .env',
    );
  });

  it('runs the image built here with PostgreSQL and Redis, each waited for, with a configuration Depot accepts', () => {
    const { services, volumes } = interpolate(compose, secrets) as {
      services: Record<string, Record<string, unknown>>;
      volumes: Record<string, unknown>;
    };
    const depot = services.depot as {
      build: string;
      environment: Record<string, string>;
      volumes: string[];
      depends_on: Record<string, { condition: string }>;
    };
    expect(depot.build).toBe('.');
    expect(depot.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    for (const name of Object.keys(depot.depends_on)) expect(services[name].healthcheck).toBeDefined();
    for (const key of Object.keys(depot.environment)) expect([...CONFIG_VARIABLES, ...SYSTEM_VARIABLES]).toContain(key);
    const config = loadConfig({ ...dockerEnv(image), ...depot.environment });

    const database = new URL(config.DATABASE_URL);
    const postgres = services.postgres.environment as Record<string, string>;
    expect([database.hostname, database.username, database.password, database.pathname]).toEqual([
      'postgres',
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      `/${postgres.POSTGRES_DB}`,
    ]);
    expect(new URL(config.REDIS_URL ?? '').hostname).toBe('redis');
    // the pictures and the backups outlive the container
    const mounts = depot.volumes.map((v) => v.split(':'));
    expect(mounts).toContainEqual(['uploads', config.DEPOT_UPLOADS_DIR]);
    expect(mounts.map((m) => m[1])).toContain(config.DEPOT_BACKUP_DIR);
    for (const [name] of mounts.filter(([source]) => !source.startsWith('.'))) expect(volumes).toHaveProperty(name);
    // pg_dump in the image must be at least the server's major version (Debian 13: 17)
    expect(services.postgres.image).toMatch(/^postgres:17\b/);
  });
});

describe('the systemd unit', () => {
  const unit = unitFile(read('deploy/depot.service'));

  it('starts what the image starts, as its own user, with its environment file, restarting on failure', () => {
    const [binary, ...args] = unit.Service.ExecStart[0].split(' ');
    expect(binary).toBe('/usr/bin/node');
    expect(['node', ...args]).toEqual(exec('CMD'));
    expect(unit.Service).toMatchObject({
      User: ['depot'],
      WorkingDirectory: ['/opt/depot'],
      EnvironmentFile: ['/etc/depot/depot.env'],
      Restart: ['on-failure'],
      StateDirectory: ['depot'],
    });
    expect(unit.Install.WantedBy).toEqual(['multi-user.target']);
  });

  it('reads an environment file Depot accepts, writing only where the unit lets it', () => {
    const env = envFile(read('deploy/depot.env'));
    for (const key of Object.keys(env)) expect([...CONFIG_VARIABLES, ...SYSTEM_VARIABLES]).toContain(key);
    const config = loadConfig(env);
    const writable = ['/var/lib/depot', ...unit.Service.ReadWritePaths];
    for (const place of [
      config.DATABASE_URL.slice('sqlite:'.length),
      config.DEPOT_UPLOADS_DIR,
      config.DEPOT_BACKUP_DIR,
    ]) {
      expect(writable.some((w) => place?.startsWith(`${w}/`) || place === w)).toBe(true);
    }
  });

  it.runIf(spawnSync('systemd-analyze', ['--version']).status === 0)('passes systemd-analyze verify', () => {
    const verified = spawnSync('systemd-analyze', ['verify', path.join(REPO_ROOT, 'deploy/depot.service')], {
      encoding: 'utf8',
    });
    expect(verified.stderr + verified.stdout).toBe('');
  });
});
