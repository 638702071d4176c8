import { FileAddOutlined, FileTextOutlined, PlusCircleOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  formatKhr,
  formatUsd,
  type OrderDetail,
  single,
  taxDocumentDetail,
  taxDocumentSummary,
  written,
} from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Flex, List, Modal, Spin, Typography } from 'antd';
import { useState } from 'react';
import { failureMessage, resourceKey, usePage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { ApiError, api } from '../../lib/http.ts';
import { useBothLanguages, usePrint } from '../../lib/printing/print.tsx';
import { EInvoiceStatusBadge } from '../einvoice/EInvoiceStatusBadge.tsx';
import { DebitNoteDialog } from './DebitNoteDialog.tsx';
import { TaxDocumentSheet } from './TaxDocumentSheet.tsx';

/**
 * A tax document on screen (A4), Print, and its credit and debit notes (each opens in turn); a
 * debit note against it when the server's abilities allow (a manager, an invoice).
 */
export function TaxDocumentDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { t, locale } = useCtx();
  const [shown, setShown] = useState(id);
  const [debiting, setDebiting] = useState(false);
  const printer = usePrint();
  const ready = useBothLanguages();
  const query = useQuery({
    queryKey: resourceKey('tax-documents', shown),
    queryFn: ({ signal }) => api(`tax-documents/${shown}`, { signal, schema: single(taxDocumentDetail) }),
  });
  const doc = query.data?.data;
  return (
    <Modal
      open
      title={doc ? `${t(`tax.kind.${doc.kind}`)} ${doc.number}` : t('tax.title')}
      onCancel={onClose}
      width={880}
      destroyOnHidden
      footer={
        <Flex gap={8} justify="end" wrap>
          {doc?.abilities.debit === true && (
            <Button icon={<PlusCircleOutlined />} onClick={() => setDebiting(true)} data-testid="debit-note">
              {t('tax.debit')}
            </Button>
          )}
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={!doc}
            loading={printer.printing}
            onClick={() =>
              doc &&
              printer.print(<TaxDocumentSheet doc={doc} verificationLink={doc.einvoice?.verification_link} />, 'a4')
            }
            data-testid="print-document"
          >
            {t('print.print')}
          </Button>
        </Flex>
      }
    >
      {query.isError && <Alert type="error" showIcon title={failureMessage(query.error, locale)} />}
      {doc?.einvoice && (
        <div style={{ marginBottom: 8 }}>
          <EInvoiceStatusBadge kind={doc.einvoice.kind} id={doc.id} />
        </div>
      )}
      {doc && (doc.notes.length > 0 || doc.original_id) && (
        <Flex vertical gap={4} style={{ marginBottom: 12 }} data-testid="document-notes">
          {doc.original_id && (
            <Button
              type="link"
              style={{ padding: 0, alignSelf: 'flex-start' }}
              onClick={() => setShown(doc.original_id!)}
            >
              {t('tax.original')}: {doc.original_number}
            </Button>
          )}
          {doc.notes.length > 0 && (
            <List
              size="small"
              header={<Typography.Text strong>{t('tax.notes')}</Typography.Text>}
              dataSource={doc.notes}
              renderItem={(note) => (
                <List.Item>
                  <Button type="link" style={{ padding: 0 }} onClick={() => setShown(note.id)} data-testid="note-link">
                    {t(`tax.kind.${note.kind}`)} {note.number}
                  </Button>
                  <span>
                    {formatUsd(note.total_cents)} · {formatKhr(note.total_khr)}
                  </span>
                </List.Item>
              )}
            />
          )}
        </Flex>
      )}
      <div className="print-preview print-preview-a4">
        {ready && doc ? <TaxDocumentSheet doc={doc} verificationLink={doc.einvoice?.verification_link} /> : <Spin />}
      </div>
      {printer.portal}
      {debiting && doc && (
        <DebitNoteDialog
          invoice={doc}
          onClose={() => setDebiting(false)}
          onDone={(note) => {
            setDebiting(false);
            setShown(note);
          }}
        />
      )}
    </Modal>
  );
}

/**
 * On a sale: its invoice (tax or commercial, chosen by the server from the buyer), issued here, or
 * opened when it has one. A refusal names what is missing (the seller's or the buyer's TIN, ...).
 */
export function OrderTaxDocument({ order }: { order: OrderDetail }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const canList = useCan('tax_documents.list');
  const canIssue = useCan('tax_documents.create');
  const refresh = useRefreshAll();
  const [open, setOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const page = usePage('tax-documents', taxDocumentSummary, `filter[order_id]=${order.id}&per_page=100`, canList);
  const invoice = page.data?.data.find((d) => d.kind === 'tax_invoice' || d.kind === 'commercial_invoice');
  if (order.status !== 'confirmed' || !canList) return null;

  const issue = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const done = await api('tax-documents', {
        method: 'POST',
        body: { order_id: order.id },
        idempotencyKey: key,
        schema: written(taxDocumentDetail),
      });
      setKey(crypto.randomUUID());
      void message.success(done.message);
      void refresh();
      setOpen(done.data.id);
    } catch (error) {
      setKey(crypto.randomUUID());
      // a refused tax invoice names each missing field: all of them, one a line
      const fields = error instanceof ApiError ? Object.values(error.body?.errors ?? {}).flat() : [];
      setProblem(fields.length ? fields.join('\n') : failureMessage(error, locale));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {invoice ? (
        <Button icon={<FileTextOutlined />} onClick={() => setOpen(invoice.id)} data-testid="open-tax-document">
          {t('tax.view', { number: invoice.number })}
        </Button>
      ) : (
        canIssue && (
          <Button
            icon={<FileAddOutlined />}
            loading={busy}
            onClick={() => void issue()}
            data-testid="issue-tax-document"
          >
            {order.customer_vat_number ? t('tax.issueTax') : t('tax.issueCommercial')}
          </Button>
        )
      )}
      {problem && <Alert type="error" showIcon title={problem} style={{ marginTop: 8, whiteSpace: 'pre-line' }} />}
      {open !== null && <TaxDocumentDialog id={open} onClose={() => setOpen(null)} />}
    </>
  );
}
