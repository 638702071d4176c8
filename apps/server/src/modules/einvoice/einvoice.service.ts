import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EInvoiceDocumentStatus } from '@depot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { type Actor, can, covers, inStores } from '../../policies/policy.ts';
import {
  type CamInvoiceConfig,
  CamInvoiceRefused,
  CamInvoiceUnreachable,
  camInvoiceClient,
} from './caminvoice.client.ts';
import { connectionService, NotConnected } from './connection.ts';
import { type EInvoiceKind, hasEInvoiceSource, loadEInvoiceDocument } from './document.ts';
import { outboxService } from './outbox.ts';
import { receivedService } from './received.ts';
import { sealKey } from './seal.ts';

/**
 * E-invoicing with CamInvoice, assembled: the connection, the outbox and its schedule, received
 * documents, the webhook, the TIN lookup. Who may do what is declared on the routes and checked
 * here where it depends on the row (a document's store).
 */

export interface EInvoiceOptions {
  /** The software provider's credentials and the platform's base URL; absent, e-invoicing is off. */
  caminvoice?: CamInvoiceConfig | null;
  /** DEPOT_SECRET_KEY: the key tokens are sealed with; absent, one kept in app_secrets. */
  secretKey?: Buffer | null;
  /** CAMINVOICE_WEBHOOK_SECRET; absent, one generated and kept in app_secrets. */
  webhookSecret?: string | null;
  /** Seconds between outbox runs and status polls; absent, no schedule (tests drive it). */
  pollSeconds?: number | null;
}

const WEBHOOK_SECRET = 'einvoice.webhook_secret';

async function webhookSecretOf(db: Db, configured?: string | null): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('app_secrets')
    .values({ name: WEBHOOK_SECRET, value: randomBytes(24).toString('hex'), created_at: now() })
    .onConflict((c) => c.column('name').doNothing())
    .execute();
  return (
    await db.selectFrom('app_secrets').select('value').where('name', '=', WEBHOOK_SECRET).executeTakeFirstOrThrow()
  ).value;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

const statusColumns = [
  'document_kind',
  'document_id',
  'store_id',
  'number',
  'status',
  'reason',
  'platform_document_id',
  'verification_link',
  'attempts',
  'updated_at',
] as const;

function present(row: EInvoiceDocumentStatus & { store_id?: number }): EInvoiceDocumentStatus {
  const { store_id: _store, ...rest } = row;
  return rest;
}

/**
 * The verification link of a document CamInvoice cleared (valid or later), for the A4 invoice's QR
 * code; null while it is not cleared (or was rejected).
 */
export async function einvoiceVerificationLink(db: Db, kind: EInvoiceKind, documentId: number): Promise<string | null> {
  const row = await db
    .selectFrom('einvoice_outbox')
    .select(['status', 'verification_link'])
    .where('document_kind', '=', kind)
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return row && ['valid', 'delivered', 'accepted'].includes(row.status) ? row.verification_link : null;
}

export async function einvoicing(db: Db, options: EInvoiceOptions, log?: FastifyBaseLogger) {
  const config = options.caminvoice ?? null;
  const secret = await webhookSecretOf(db, options.webhookSecret);
  const connection = connectionService(db, {
    client: config ? camInvoiceClient(config) : null,
    key: await sealKey(db, options.secretKey),
    environment: config && !/sandbox|sb-/.test(config.baseUrl) ? 'production' : 'sandbox',
    webhookUrl: `/api/caminvoice/webhook/${secret}`,
  });
  const outbox = outboxService(db, connection, log);
  const received = receivedService(db, connection);

  async function pollOnce(): Promise<void> {
    const since = await connection.lastPolled();
    const started = now();
    const events = await connection.client().poll(await connection.accessToken(), since);
    for (const event of events) {
      if (event.type === 'RECEIVE') await received.import(event.document_id);
      else await outbox.refreshOne(event.document_id);
    }
    await outbox.refresh();
    await connection.polled(started);
  }

  /** One scheduled round: send what is due, then read statuses and received documents. */
  async function tick(): Promise<void> {
    if (!(await connection.endpointId())) return;
    await outbox.run();
    try {
      await pollOnce();
    } catch (error) {
      if (error instanceof NotConnected || error instanceof CamInvoiceUnreachable) return;
      throw error;
    }
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  if (options.pollSeconds && config) {
    timer = setInterval(() => {
      if (running) return;
      running = tick()
        .catch((error) => log?.error({ err: error }, 'CamInvoice round failed'))
        .finally(() => (running = null));
    }, options.pollSeconds * 1000);
    timer.unref();
  }

  type WebhookEvent = { type: string; document_id: string | null; endpoint_id: string | null };

  async function handle(event: WebhookEvent): Promise<'done' | 'ignored'> {
    const ours = await connection.endpointId();
    if (!ours) return 'ignored';
    if (event.type === 'ENTITY.REVOKED') {
      if (event.endpoint_id && event.endpoint_id !== ours) return 'ignored';
      try {
        // revoked only if CamInvoice indeed refuses the refresh token
        await connection.accessToken();
      } catch (error) {
        if (!(error instanceof NotConnected)) throw error;
      }
      return 'done';
    }
    if (!event.document_id) return 'ignored';
    if (event.type === 'DOCUMENT.RECEIVED') {
      await received.import(event.document_id);
      return 'done';
    }
    return (await outbox.refreshOne(event.document_id)) ? 'done' : 'ignored';
  }

  return {
    connection,
    outbox,
    received,
    tick,
    pollOnce,
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },

    /** The webhook's secret path segment, compared in constant time. */
    webhookAllowed(given: string): boolean {
      return timingSafeEqual(digest(given), digest(secret));
    },

    /**
     * A CamInvoice event. Its body only names what changed; the change itself is read from
     * CamInvoice's API with the business's token, so a forged body can at most cause a re-read.
     */
    async webhook(event: WebhookEvent): Promise<'done' | 'ignored'> {
      try {
        return await handle(event);
      } catch (error) {
        // CamInvoice unreachable, the connection gone, a document that cannot be read: the next
        // poll finds the same change; CamInvoice is answered, never with an error of Depot's
        log?.warn({ err: error, event: event.type }, 'CamInvoice webhook not applied');
        return 'ignored';
      }
    },

    /** Queue a document now (the tax documents do it when they issue; an administrator may ask again). */
    async queue(actor: Actor, kind: EInvoiceKind, documentId: number): Promise<EInvoiceDocumentStatus> {
      if (!hasEInvoiceSource(kind)) throw new AppError(422, 'einvoice.no_source');
      const existing = await this.status(actor, kind, documentId).catch(() => null);
      if (existing && !['draft', 'submitting'].includes(existing.status)) {
        throw new AppError(409, 'einvoice.final', { number: existing.number, status: existing.status });
      }
      if (!existing) {
        let doc: Awaited<ReturnType<typeof loadEInvoiceDocument>>;
        try {
          doc = await loadEInvoiceDocument(db, kind, documentId);
        } catch {
          throw new AppError(404, 'error.not_found');
        }
        if (!covers(actor, doc.store_id)) throw new AppError(404, 'error.not_found');
        await outbox.enqueue(db, kind, documentId, doc.store_id, doc.number);
      } else {
        await db
          .updateTable('einvoice_outbox')
          .set({ next_attempt_at: now(), updated_at: now() })
          .where('document_kind', '=', kind)
          .where('document_id', '=', documentId)
          .execute();
      }
      if (await connection.endpointId()) await outbox.run();
      return this.status(actor, kind, documentId);
    },

    async status(actor: Actor, kind: EInvoiceKind, documentId: number): Promise<EInvoiceDocumentStatus> {
      const row = await inStores(
        db.selectFrom('einvoice_outbox').select(statusColumns),
        actor,
        'einvoice_outbox.store_id',
      )
        .where('document_kind', '=', kind)
        .where('document_id', '=', documentId)
        .executeTakeFirst();
      if (!row) throw new AppError(404, 'error.not_found');
      return present(row);
    },

    async list(actor: Actor, status?: string, page = 1): Promise<EInvoiceDocumentStatus[]> {
      let query = inStores(db.selectFrom('einvoice_outbox').select(statusColumns), actor, 'einvoice_outbox.store_id');
      if (status) query = query.where('status', '=', status as never);
      const rows = await query
        .orderBy('id', 'desc')
        .limit(50)
        .offset((page - 1) * 50)
        .execute();
      return rows.map(present);
    },

    /** A business on CamInvoice by its TIN, for the customer form (through the server's token only). */
    async lookup(tin: string) {
      let found: Awaited<ReturnType<ReturnType<typeof camInvoiceClient>['businesses']>>;
      try {
        found = await connection.client().businesses(await connection.accessToken(), tin);
      } catch (error) {
        if (error instanceof NotConnected) throw new AppError(409, 'einvoice.not_connected');
        if (error instanceof CamInvoiceUnreachable) throw new AppError(502, 'einvoice.unreachable');
        if (error instanceof CamInvoiceRefused) throw new AppError(502, 'einvoice.unreachable');
        throw error;
      }
      const normal = (t: string | null | undefined) => (t ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
      const match = found.find((b) => normal(b.tin) === normal(tin));
      if (!match) throw new AppError(404, 'einvoice.tin_unknown');
      return {
        endpoint_id: match.endpoint_id,
        tin: match.tin ?? null,
        name_en: match.company_name_en ?? null,
        name_kh: match.company_name_kh ?? null,
        address: [match.address, match.city].filter(Boolean).join(', ') || null,
      };
    },

    canManage: (actor: Actor) => can(actor, 'settings.update'),
  };
}

export type EInvoicing = Awaited<ReturnType<typeof einvoicing>>;
