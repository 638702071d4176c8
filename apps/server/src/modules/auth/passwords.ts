import { randomBytes } from 'node:crypto';
import { hash, type Options, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): about 20 ms a hash on these machines.
// `algorithm: 2` is Algorithm.Argon2id: the package ships it as a const enum, which isolated modules cannot import.
const options: Options = { algorithm: 2 as Options['algorithm'], memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing in particular, verified when the name is unknown so both paths take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

/** 16 characters from an alphabet without look-alikes (0/O, 1/l/I): easy to read off a console. */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(16);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
