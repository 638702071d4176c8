import { formatKhr, formatQuantity, formatUsd, type TaxDocument } from '@depot/contracts';
import type { TFunction } from 'i18next';
import { useCtx } from '../../kit/useCtx.ts';
import { percentText } from '../../lib/format.ts';
import { printedDate } from '../../lib/printing/print.tsx';
import { useSettings } from '../../lib/settings.ts';
import { QrSymbol } from '../orders/khqr/KhqrCard.tsx';
import { Bi, Row } from '../orders/receipts.tsx';

const KH = { lng: 'kh' } as const;
const EN = { lng: 'en' } as const;
const both = (t: TFunction, key: string, params: Record<string, unknown> = {}) =>
  [t(key, { ...params, ...KH }), t(key, { ...params, ...EN })] as const;

const TITLE = {
  tax_invoice: 'print.taxInvoice',
  commercial_invoice: 'print.commercialInvoice',
  credit_note: 'print.creditNote',
  debit_note: 'print.debitNote',
} as const;

/**
 * A tax document on A4, as issued (the snapshot, not the order as it is now): Khmer first, English
 * under each label. A tax invoice and its notes show the total before tax, each tax on its own line
 * and the total including VAT in riel with the rate and its source; a commercial invoice shows
 * prices including tax, no breakdown. The signature block ends every document.
 */
export function TaxDocumentSheet({
  doc,
  verificationLink = null,
}: {
  doc: TaxDocument;
  /** CamInvoice's verification link once the document is cleared: printed as a QR code. */
  verificationLink?: string | null;
}) {
  const { t } = useCtx();
  const { settings } = useSettings();
  const commercial = doc.kind === 'commercial_invoice';
  const source = both(t, `tax.source.${doc.rate_source}`, {
    date: doc.rate_source === 'gdt_monthly' ? doc.rate_date.slice(0, 7) : doc.rate_date,
  });
  return (
    <div className="print-doc tax-invoice" data-testid="tax-document">
      <div className="invoice-head">
        <div className="invoice-seller">
          {settings.logo_url && <img src={settings.logo_url} alt="" className="invoice-logo" />}
          <div>
            <div className="print-title">{doc.seller.name}</div>
            {doc.seller.address && <div>{doc.seller.address}</div>}
            {doc.seller.phone && <div>{doc.seller.phone}</div>}
            <Row label={both(t, 'print.sellerTin')}>
              <span data-testid="seller-tin">{doc.seller.tin ?? '—'}</span>
            </Row>
          </div>
        </div>
        <div className="invoice-title">
          <Bi pair={both(t, TITLE[doc.kind])} />
        </div>
      </div>
      <div className="invoice-parties">
        <div>
          <Row label={both(t, 'print.invoiceNumber')}>
            <span data-testid="document-number">{doc.number}</span>
          </Row>
          <Row label={both(t, 'print.date')}>{printedDate(doc.issued_at)}</Row>
          <Row label={both(t, 'print.order')}>{doc.order_number}</Row>
          {doc.original_number && (
            <Row label={both(t, 'print.originalInvoice')}>
              <span data-testid="original-number">
                {doc.original_number} · {doc.original_issue_date}
              </span>
            </Row>
          )}
          {doc.reason && <Row label={both(t, 'print.reason')}>{doc.reason}</Row>}
        </div>
        <div>
          <Row label={both(t, 'print.buyer')}>{doc.buyer.name}</Row>
          {doc.buyer.address && <Row label={both(t, 'print.address')}>{doc.buyer.address}</Row>}
          {doc.buyer.phone && <Row label={both(t, 'print.phone')}>{doc.buyer.phone}</Row>}
          <Row label={both(t, 'print.buyerTin')}>
            <span data-testid="buyer-tin">{doc.buyer.tin ?? '—'}</span>
          </Row>
        </div>
      </div>
      <table className="invoice-table">
        <thead>
          <tr>
            <th>
              <Bi pair={both(t, 'print.no')} />
            </th>
            <th>
              <Bi pair={both(t, 'print.description')} />
            </th>
            <th>
              <Bi pair={both(t, 'print.quantity')} />
            </th>
            <th>
              <Bi pair={both(t, commercial ? 'print.priceWithVat' : 'print.unitPrice')} />
            </th>
            {!commercial && (
              <th>
                <Bi pair={both(t, 'print.category')} />
              </th>
            )}
            <th>
              <Bi pair={both(t, 'print.amount')} />
            </th>
          </tr>
        </thead>
        <tbody>
          {doc.lines.map((line) => (
            <tr key={line.line_no}>
              <td>{line.line_no}</td>
              <td>
                <div lang="km">{line.description_kh}</div>
                {line.description_en !== line.description_kh && <div className="print-en">{line.description_en}</div>}
              </td>
              <td className="print-figure">
                {formatQuantity(line.quantity, line.decimals)} {line.unit_kh ?? ''}
              </td>
              <td className="print-figure">
                {formatUsd(
                  commercial
                    ? Math.round((line.total_cents * 10 ** line.decimals) / line.quantity)
                    : line.unit_price_cents,
                )}
              </td>
              {!commercial && (
                <td>
                  {line.tax_category}
                  {line.tax_category === 'S' ? ` ${percentText(line.tax_rate_bp)}` : ''}
                </td>
              )}
              <td className="print-figure">{formatUsd(commercial ? line.total_cents : line.net_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="invoice-totals">
        {!commercial && (
          <>
            <Row label={both(t, 'print.beforeVat')}>{formatUsd(doc.net_cents)}</Row>
            {doc.taxes
              .filter((tax) => tax.tax_category === 'S')
              .map((tax) => (
                <Row
                  key={tax.tax_rate_bp}
                  label={[
                    `${t('print.vat', KH)} ${percentText(tax.tax_rate_bp)}`,
                    `${t('print.vat', EN)} ${percentText(tax.tax_rate_bp)}`,
                  ]}
                >
                  <span data-testid="document-vat">{formatUsd(tax.tax_cents)}</span>
                </Row>
              ))}
          </>
        )}
        <Row label={both(t, 'print.totalWithVat')} strong>
          <span data-testid="document-total">{formatUsd(doc.total_cents)}</span>
        </Row>
        <Row label={both(t, 'print.totalKhrVat')} strong>
          <span data-testid="document-total-khr">{formatKhr(doc.total_khr)}</span>
        </Row>
        {!commercial && <Row label={both(t, 'print.vatKhr')}>{formatKhr(doc.tax_khr)}</Row>}
        <Row label={both(t, 'print.rate')}>
          <span data-testid="document-rate">1 $ = {formatKhr(doc.rate_khr)}</span>
        </Row>
        <Row label={both(t, 'print.rateSource')}>
          <Bi pair={source} inline />
        </Row>
      </div>
      {verificationLink && (
        <div className="invoice-verification" data-testid="einvoice-verification">
          <QrSymbol payload={verificationLink} size={96} label="CamInvoice" testId="einvoice-qr" />
          <div>
            <Bi pair={both(t, 'print.einvoiceVerify')} />
            <div className="print-en invoice-link">{verificationLink}</div>
          </div>
        </div>
      )}
      <div className="invoice-signatures">
        <div>
          <Bi pair={both(t, 'print.buyerSign')} />
        </div>
        <div>
          <Bi pair={both(t, 'print.sellerSign')} />
        </div>
      </div>
    </div>
  );
}
