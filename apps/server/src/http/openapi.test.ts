import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TEST_DB, useTestApp } from '../test/harness.ts';
import { operationId } from './openapi.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** Redocly's lint of a document, with the repository's redocly.yaml (the recommended rules). */
async function lint(document: string): Promise<{ totals: { errors: number; warnings: number }; problems: Problem[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-openapi-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, document);
  try {
    const run = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json', '--max-problems', '50'],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((failed: { stdout?: string }) => ({ stdout: failed.stdout ?? '' }));
    return JSON.parse(run.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// the document is the routes', the same whichever database serves them: linted once, on SQLite
describe.skipIf(TEST_DB === 'postgres')('the API description (/api/docs/json)', () => {
  const ctx = useTestApp();

  it("passes Redocly's recommended rules", async () => {
    const res = await ctx.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const result = await lint(res.body);
    const problems = result.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('names every operation by its method and path, and documents its 4xx answers', async () => {
    const doc = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<string, { operationId: string; summary: string; responses: Record<string, unknown> }>
      >;
    };
    const products = doc.paths['/api/products/{id}'];
    expect(products.get.operationId).toBe('getProductsById');
    expect(Object.keys(products.put.responses)).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '409', '422']),
    );
    expect(doc.paths['/api/health'].get.responses).not.toHaveProperty('401');
  });
});

describe('operationId', () => {
  it('is the method and the path in camelCase, a parameter as "by"', () => {
    expect(operationId('POST', '/api/purchases/{id}/receive')).toBe('postPurchasesByIdReceive');
    expect(operationId('GET', '/api/sub-categories')).toBe('getSubCategories');
    expect(operationId('GET', '/broadcasting/auth')).toBe('getBroadcastingAuth');
  });
});
