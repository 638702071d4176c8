import { createHash, randomBytes } from 'node:crypto';

/**
 * Tokens are 256 random bits; only their SHA-256 is stored. A token that strong cannot be
 * guessed from its hash, so a slow hash or a pepper would add cost and no safety.
 */
export function newToken(): string {
  return `dpt_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
