import type {
  debitNoteInput,
  OfficialRate,
  OfficialRateKind,
  officialRateInput,
  TaxDocumentDetail,
  TaxDocumentKind,
  TaxDocumentSummary,
  taxDocumentInput,
} from '@depot/contracts';
import { TAX_DOCUMENT_KINDS } from '@depot/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { notFound } from '../../http/errors.ts';
import type { Actor } from '../../policies/policy.ts';
import { assertMayInvoice, taxDocumentPolicy, taxDocumentScope } from '../../policies/taxDocuments.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { einvoiceOf } from './tax.einvoice.ts';
import { issueDebitNote, issueSaleInvoice } from './tax.issue.ts';
import { documentRow, insertOfficial, notesOf, officialHistory } from './tax.repository.ts';
import { taxDocumentById } from './tax.snapshot.ts';

export interface TaxListQuery {
  page: number;
  per_page: number;
  search?: string;
  kind?: TaxDocumentKind;
  store_id?: number;
  order_id?: number;
}

/** `like` patterns take the text as typed: its own % and _ are not wildcards. */
const literal = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Tax documents for the routes: the list (the actor's stores), a document with its notes and
 * abilities, issuing a sale's invoice, a debit note; and the published rates entered by hand.
 * Every write is one transaction (with the request's Idempotency-Key), audited.
 */
export function taxService(db: Db) {
  async function detail(actor: Actor, id: number): Promise<TaxDocumentDetail> {
    const row = await documentRow(db, id);
    if (!row) throw notFound();
    taxDocumentPolicy.assertVisible(actor, row);
    const snapshot = await taxDocumentById(db, id);
    const notes = (await notesOf(db, id)).map((note) => ({
      ...note,
      kind: note.kind as TaxDocumentKind,
      total_cents: Number(note.total_cents),
      total_khr: Number(note.total_khr),
    }));
    return {
      ...snapshot,
      notes,
      einvoice: await einvoiceOf(db, snapshot),
      abilities: taxDocumentPolicy.abilities(actor, row),
    };
  }

  return {
    detail,

    async list(actor: Actor, q: TaxListQuery): Promise<{ rows: TaxDocumentSummary[]; total: number }> {
      let query = db
        .selectFrom('tax_documents')
        .innerJoin('stores', 'stores.id', 'tax_documents.store_id')
        .innerJoin('orders', 'orders.id', 'tax_documents.order_id')
        .leftJoin('tax_documents as original', 'original.id', 'tax_documents.original_id');
      query = taxDocumentScope(query, actor);
      if (q.kind) query = query.where('tax_documents.kind', '=', q.kind);
      if (q.store_id) query = query.where('tax_documents.store_id', '=', q.store_id);
      if (q.order_id) query = query.where('tax_documents.order_id', '=', q.order_id);
      if (q.search) {
        const pattern = `%${literal(q.search)}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(tax_documents.number)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(tax_documents.buyer_name)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(orders.number)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        );
      }
      const { n } = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      const rows = await query
        .select([
          'tax_documents.id',
          'tax_documents.kind',
          'tax_documents.series',
          'tax_documents.sequence',
          'tax_documents.number',
          'tax_documents.issued_at',
          'tax_documents.store_id',
          'stores.name as store_name',
          'tax_documents.order_id',
          'orders.number as order_number',
          'tax_documents.original_id',
          'original.number as original_number',
          'tax_documents.buyer_name',
          'tax_documents.buyer_tin',
          'tax_documents.total_cents',
          'tax_documents.total_khr',
          'tax_documents.rate_khr',
          'tax_documents.rate_source',
          'tax_documents.created_at',
        ])
        .orderBy('tax_documents.issued_at', 'desc')
        .orderBy('tax_documents.id', 'desc')
        .limit(q.per_page)
        .offset((q.page - 1) * q.per_page)
        .execute();
      return {
        total: Number(n),
        rows: rows.map((row) => ({
          ...row,
          kind: row.kind as TaxDocumentKind,
          rate_source: row.rate_source as TaxDocumentSummary['rate_source'],
          sequence: Number(row.sequence),
          total_cents: Number(row.total_cents),
          total_khr: Number(row.total_khr),
          // never edited: updated as created, never deleted
          updated_at: row.created_at,
          deleted_at: null,
        })),
      };
    },

    /** A sale's invoice (tax or commercial), issued now. */
    async issue(actor: Actor, input: z.output<typeof taxDocumentInput>): Promise<TaxDocumentDetail> {
      const id = await transaction(
        db,
        async (trx) => {
          // the order's row, locked (on PostgreSQL) against a return or void at the same time: either
          // the return comes first and is not invoiced, or after, and makes its credit note
          const order = await trx
            .updateTable('orders')
            .set((eb) => ({ updated_at: eb.ref('updated_at') }))
            .where('id', '=', input.order_id)
            .returning(['id', 'store_id'])
            .executeTakeFirst();
          if (!order) throw notFound();
          assertMayInvoice(actor, order);
          const made = await issueSaleInvoice(trx, order.id, input.kind, actor.userId);
          await recordAudit(trx, auditWho(actor), {
            action: 'tax_document.issued',
            subject: { type: 'order', id: order.id },
            after: { tax_document_id: made, kind: input.kind ?? null },
          });
          return made;
        },
        actor,
      );
      return detail(actor, id);
    },

    /** A debit note against an invoice: a price correction upward. */
    async debit(actor: Actor, id: number, input: z.output<typeof debitNoteInput>): Promise<TaxDocumentDetail> {
      const made = await transaction(
        db,
        async (trx) => {
          const invoice = await documentRow(trx, id);
          if (!invoice) throw notFound();
          taxDocumentPolicy.authorize(actor, invoice, 'debit');
          const note = await issueDebitNote(trx, invoice, input, actor.userId);
          await recordAudit(trx, auditWho(actor), {
            action: 'tax_document.issued',
            subject: { type: 'order', id: invoice.order_id },
            after: { tax_document_id: note, kind: 'debit_note', original_id: id, reason: input.reason },
          });
          return note;
        },
        actor,
      );
      return detail(actor, made);
    },

    officialRates: (page: { page: number; per_page: number }, kind?: OfficialRateKind) =>
      officialHistory(db, page, kind),

    /** A published rate entered by hand; a GDT month's is kept under its first day. */
    recordOfficial(actor: Actor, input: z.output<typeof officialRateInput>): Promise<OfficialRate> {
      return transaction(db, async (trx) => {
        const date = input.kind === 'gdt_monthly' ? `${input.date.slice(0, 7)}-01` : input.date;
        const rate = await insertOfficial(trx, {
          kind: input.kind,
          date,
          rate_khr: input.rate_khr,
          source: 'manual',
          created_by: actor.userId,
          created_at: now(),
        });
        await recordAudit(trx, auditWho(actor), {
          action: 'exchange_rate.official',
          subject: { type: 'exchange_rate', id: null },
          after: { kind: input.kind, date, rate_khr: input.rate_khr },
        });
        return rate;
      });
    },
  };
}

export const TAX_KINDS = TAX_DOCUMENT_KINDS;
export type TaxService = ReturnType<typeof taxService>;
