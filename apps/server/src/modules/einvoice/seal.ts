import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';

/**
 * Secrets kept in the database (CamInvoice's tokens) are sealed with AES-256-GCM: a fresh 12-byte
 * nonce per value, the 16-byte tag checked on opening (a changed byte fails). The key is
 * DEPOT_SECRET_KEY (32 bytes, base64 or hex) when set, which keeps it out of the database and its
 * backups; otherwise one generated on first use and kept in `app_secrets`, as the real-time keys are
 * (realtime/realtime.ts): shared by every process on the database.
 */

const KEY_NAME = 'einvoice.seal_key';
const VERSION = 'v1';

export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : null;
}

export async function sealKey(db: Db, configured?: Buffer | null): Promise<Buffer> {
  if (configured) return configured;
  await db
    .insertInto('app_secrets')
    .values({ name: KEY_NAME, value: randomBytes(32).toString('base64'), created_at: now() })
    .onConflict((c) => c.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', KEY_NAME).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

export function seal(key: Buffer, plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, nonce.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
}

export function open(key: Buffer, sealed: string): string {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== VERSION || !nonce || !tag || body === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}
