import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVER_ROOT } from '../../paths.ts';
import type { EInvoiceKind } from './document.ts';

/**
 * Validation against the official OASIS UBL 2.1 schemas shipped with the server
 * (apps/server/assets/ubl-2.1), by libxml2's `xmllint --schema` (Debian: libxml2-utils). Used by
 * the tests over every document Depot writes, and by an operator checking a document by hand.
 */

export const UBL_SCHEMA_DIR = path.join(SERVER_ROOT, 'assets/ubl-2.1');

const SCHEMAS: Record<EInvoiceKind, string> = {
  invoice: 'maindoc/UBL-Invoice-2.1.xsd',
  credit_note: 'maindoc/UBL-CreditNote-2.1.xsd',
  debit_note: 'maindoc/UBL-DebitNote-2.1.xsd',
};

const run = promisify(execFile);

/** The schema's verdict: valid, or xmllint's messages. */
export async function validateUbl(kind: EInvoiceKind, xml: string): Promise<{ valid: boolean; errors: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-ubl-'));
  const file = path.join(dir, 'document.xml');
  try {
    fs.writeFileSync(file, xml);
    await run('xmllint', ['--noout', '--nonet', '--schema', path.join(UBL_SCHEMA_DIR, SCHEMAS[kind]), file]);
    return { valid: true, errors: '' };
  } catch (error) {
    const failure = error as { code?: number | string; stderr?: string };
    if (failure.code === 'ENOENT') throw new Error('xmllint is not installed (Debian: apt-get install libxml2-utils)');
    return { valid: false, errors: String(failure.stderr ?? error) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
