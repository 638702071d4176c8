import { randomBytes } from 'node:crypto';
import { hash, type Options, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { FieldError } from '../../http/errors.ts';

// OWASP's argon2id baseline (19 MiB, 2 passes): costly for a guesser, quick enough for a sign-in.
// `algorithm: 2` is Algorithm.Argon2id: the package ships it as a const enum, which isolated modules cannot import.
export const PASSWORD_HASH: Options = {
  algorithm: 2 as Options['algorithm'],
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};
let options = PASSWORD_HASH;

/**
 * The test suites' cost (their setup file calls this; nothing else does): argon2id at 1 MiB and one
 * pass. The suites make and sign in some thousands of users, and at the cost above each hash takes
 * 50 ms to a second of CPU on the 2-core machines here (Django's testing guide gives the same advice).
 * Verifying reads the cost from the hash, so a hash made at either cost signs in.
 */
export function hashCheaplyInTests(): void {
  if (!process.env.VITEST) throw new Error('a test cost for passwords, outside the tests');
  options = { ...PASSWORD_HASH, memoryCost: 1024, timeCost: 1 };
}

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

/**
 * The least zxcvbn score a new password must reach (0 to 4): 3 is "safely unguessable: moderate
 * protection from an offline slow-hash scenario" (about 10^8 guesses and more). The length rule
 * (contracts PASSWORD_MIN) is checked before, by the input's schema.
 */
export const PASSWORD_MIN_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;
function strength(): ZxcvbnFactory {
  // built on first use: the common dictionaries take a moment to load
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary },
    graphs: common.adjacencyGraphs,
  });
  return estimator;
}

/**
 * Refuses a common or guessable password (422 on `field`): the one rule for every new password —
 * a user created, a reset by an administrator, a user changing their own. `userInputs` are what an
 * attacker would try first: the user's sign-in name, full name, e-mail.
 */
export function assertStrongPassword(
  password: string,
  userInputs: readonly (string | null | undefined)[],
  field = 'password',
): void {
  const inputs = userInputs
    .filter((v): v is string => Boolean(v))
    .flatMap((v) => [v, ...v.split(/[\s@._-]+/)])
    .filter(Boolean);
  if (strength().check(password, inputs).score < PASSWORD_MIN_SCORE) {
    throw new FieldError({ [field]: [{ key: 'validation.password_weak' }] });
  }
}
