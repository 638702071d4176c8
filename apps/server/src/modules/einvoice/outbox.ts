import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import type { EInvoiceOutboxTable } from '../../db/schema.ts';
import { CamInvoiceRefused, CamInvoiceUnreachable, type PlatformDocument } from './caminvoice.client.ts';
import { type ConnectionService, NotConnected } from './connection.ts';
import { type EInvoiceKind, loadEInvoiceDocument, PLATFORM_TYPES } from './document.ts';
import { writeUbl } from './ubl.ts';

/**
 * The outbox of tax documents to clear with CamInvoice. A row per (kind, id), made when the
 * document is issued (`enqueue`, in the issuing transaction); a worker (`run`) takes due rows one
 * by one under a lease (a conditional update: two processes never take the same row), so it
 * survives restarts and runs on several processes.
 *
 * One document is cleared once, whatever is retried: the row is marked `submitting` (and the UBL
 * kept) in the database before the request leaves; a row found `submitting` later (the answer was
 * lost: a crash, a timeout) is first looked for on CamInvoice by its number, and adopted if found,
 * sent again only if not. CamInvoice also refuses a second document with a number it holds, which
 * is then looked up the same way. A refusal of the document itself is final: `rejected` with the
 * platform's reason (a new credit or debit note corrects it; issued documents are never edited).
 *
 * Statuses after `valid` (delivered, accepted, rejected by the buyer) come by polling
 * (`refresh`) and by the platform's webhook, which only names a document: its status is always
 * read from CamInvoice's API, never from the webhook's body.
 */

type Row = Pick<EInvoiceOutboxTable, 'status'> & {
  id: number;
  document_kind: EInvoiceKind;
  document_id: number;
  number: string;
  attempts: number;
  platform_document_id: string | null;
};

const LEASE_MS = 60_000;
/** Waits between attempts after CamInvoice did not answer: 30 s, 1 min, 2 min … up to an hour. */
const backoff = (attempts: number) => Math.min(3600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

/** CamInvoice's statuses in Depot's words. */
export function statusOf(platform: string): EInvoiceOutboxTable['status'] | null {
  switch (platform) {
    case 'VALID':
      return 'valid';
    case 'DELIVERED':
    case 'ACKNOWLEDGED':
    case 'IN_PROCESS':
    case 'UNDER_QUERY':
    case 'CONDITIONALLY_ACCEPTED':
      return 'delivered';
    case 'ACCEPTED':
    case 'PAID':
      return 'accepted';
    case 'REJECTED':
      return 'rejected';
    default:
      return null;
  }
}

const DUPLICATE = /duplicat|already exist|already submitted/i;

/**
 * Queue an issued tax document for CamInvoice (idempotent: a document is queued once). The tax
 * documents call it in their issuing transaction (`trx`), so a document is issued and queued together.
 */
export async function enqueueEInvoice(
  trx: Db,
  kind: EInvoiceKind,
  documentId: number,
  storeId: number,
  number: string,
): Promise<void> {
  const at = now();
  await trx
    .insertInto('einvoice_outbox')
    .values({
      document_kind: kind,
      document_id: documentId,
      store_id: storeId,
      number,
      status: 'draft',
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    })
    .onConflict((c) => c.columns(['document_kind', 'document_id']).doNothing())
    .execute();
}

export function outboxService(db: Db, connection: ConnectionService, log?: FastifyBaseLogger) {
  async function update(
    id: number,
    values: Partial<Omit<EInvoiceOutboxTable, 'id' | 'attempts'>> & { attempts?: number },
  ) {
    await db
      .updateTable('einvoice_outbox')
      .set({ ...values, updated_at: now() })
      .where('id', '=', id)
      .execute();
  }

  /** Apply a document as CamInvoice has it now. */
  async function adopt(row: Row, doc: PlatformDocument) {
    const status = statusOf(doc.status) ?? 'valid';
    await update(row.id, {
      status,
      platform_document_id: doc.document_id,
      ...(doc.verification_link ? { verification_link: doc.verification_link } : {}),
      reason: status === 'rejected' ? (doc.reason ?? null) : null,
      lease_until: null,
    });
  }

  async function later(row: Row, why: string) {
    const attempts = row.attempts + 1;
    log?.warn({ document: row.number, attempts, why }, 'CamInvoice: will try again');
    await update(row.id, {
      attempts,
      next_attempt_at: new Date(Date.now() + backoff(attempts)).toISOString(),
      lease_until: null,
    });
  }

  /** One row, leased: send it, or find what an earlier attempt did. */
  async function process(row: Row) {
    let token: string;
    try {
      token = await connection.accessToken();
    } catch (error) {
      if (error instanceof NotConnected) return later(row, 'not connected');
      if (error instanceof CamInvoiceUnreachable) return later(row, error.message);
      throw error;
    }
    const api = connection.client();
    try {
      if (row.status === 'submitting') {
        const found = await api.findSent(token, row.number);
        if (found) return adopt(row, found);
      }
      const xml = writeUbl(await loadEInvoiceDocument(db, row.document_kind, row.document_id));
      // write-ahead: whatever happens to the request, the row says it may have left
      await update(row.id, { status: 'submitting', submitted_at: now(), xml });
      const answer = await api.submit(token, PLATFORM_TYPES[row.document_kind], xml);
      const valid = answer.valid[0];
      if (valid) {
        await update(row.id, {
          status: 'valid',
          platform_document_id: valid.document_id,
          verification_link: valid.verification_link,
          reason: null,
          lease_until: null,
        });
        return;
      }
      const failure = answer.failed[0]?.message ?? 'refused';
      if (DUPLICATE.test(failure)) {
        const found = await api.findSent(token, row.number);
        if (found) return adopt(row, found);
      }
      await update(row.id, { status: 'rejected', reason: failure, lease_until: null });
    } catch (error) {
      if (error instanceof CamInvoiceUnreachable) return later({ ...row, status: 'submitting' }, error.message);
      if (error instanceof CamInvoiceRefused) {
        if (error.status === 401) return later(row, 'token refused');
        await update(row.id, { status: 'rejected', reason: error.detail, lease_until: null });
        return;
      }
      // anything else (the document could not be read or written): tried again later, logged
      log?.error({ err: error, document: row.number }, 'CamInvoice: document not sent');
      return later(row, String(error));
    }
  }

  return {
    /**
     * Queue an issued document (idempotent: a document is queued once). Call it in the issuing
     * transaction (`trx`) so a document is issued and queued together.
     */
    enqueue: enqueueEInvoice,

    /** Send every due row (draft, or submitting whose answer was lost): one pass. */
    async run(): Promise<number> {
      let done = 0;
      for (;;) {
        const at = now();
        const next = await db
          .selectFrom('einvoice_outbox')
          .select(['id', 'document_kind', 'document_id', 'number', 'status', 'attempts', 'platform_document_id'])
          .where('status', 'in', ['draft', 'submitting'])
          .where('next_attempt_at', '<=', at)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (!next) return done;
        const leased = await db
          .updateTable('einvoice_outbox')
          .set({ lease_until: new Date(Date.now() + LEASE_MS).toISOString() })
          .where('id', '=', next.id)
          .where('status', '=', next.status)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
          .executeTakeFirst();
        if (Number(leased.numUpdatedRows) !== 1) continue;
        await process(next as Row);
        done += 1;
      }
    },

    /** Read one cleared document's status from CamInvoice (polling and webhooks alike). */
    async refreshOne(platformId: string): Promise<boolean> {
      const row = await db
        .selectFrom('einvoice_outbox')
        .select(['id', 'document_kind', 'document_id', 'number', 'status', 'attempts', 'platform_document_id'])
        .where('platform_document_id', '=', platformId)
        .executeTakeFirst();
      if (!row) return false;
      const doc = await connection.client().document(await connection.accessToken(), platformId);
      const status = statusOf(doc.status);
      if (status && status !== row.status) await adopt(row as Row, doc);
      return true;
    },

    /** Poll every document not yet final. */
    async refresh(): Promise<void> {
      const open = await db
        .selectFrom('einvoice_outbox')
        .select('platform_document_id')
        .where('status', 'in', ['valid', 'delivered'])
        .where('platform_document_id', 'is not', null)
        .execute();
      for (const { platform_document_id } of open) await this.refreshOne(platform_document_id as string);
    },
  };
}

export type OutboxService = ReturnType<typeof outboxService>;
