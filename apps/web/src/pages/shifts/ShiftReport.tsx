import { FilePdfOutlined } from '@ant-design/icons';
import { type CashCurrency, type ShiftDetail, titleOf } from '@depot/contracts';
import { App, Button, Flex, Modal, Segmented, Spin } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { download } from '../../lib/http.ts';
import { PrintControls } from '../../lib/printing/PrintControls.tsx';
import { printedDate, useBothLanguages, usePrint } from '../../lib/printing/print.tsx';
import { useSettings } from '../../lib/settings.ts';
import { differenceText } from '../../resources/shifts.tsx';
import { money } from './CashCount.tsx';

type Paper = '80' | '58' | 'a4';
const KH = { lng: 'kh' } as const;
const EN = { lng: 'en' } as const;

/** Every label of the reports, as [Khmer, English]. */
function labels(t: TFunction) {
  return {
    x: [t('shifts.print.x', KH), t('shifts.print.x', EN)],
    z: [t('shifts.print.z', KH), t('shifts.print.z', EN)],
    usd: [t('shifts.print.usd', KH), t('shifts.print.usd', EN)],
    khr: [t('shifts.print.khr', KH), t('shifts.print.khr', EN)],
    float: [t('shifts.print.float', KH), t('shifts.print.float', EN)],
    cashIn: [t('shifts.print.cashIn', KH), t('shifts.print.cashIn', EN)],
    changeOut: [t('shifts.print.changeOut', KH), t('shifts.print.changeOut', EN)],
    refunds: [t('shifts.print.refunds', KH), t('shifts.print.refunds', EN)],
    payIns: [t('shifts.print.payIns', KH), t('shifts.print.payIns', EN)],
    payOuts: [t('shifts.print.payOuts', KH), t('shifts.print.payOuts', EN)],
    expected: [t('shifts.print.expected', KH), t('shifts.print.expected', EN)],
    counted: [t('shifts.print.counted', KH), t('shifts.print.counted', EN)],
    difference: [t('shifts.print.difference', KH), t('shifts.print.difference', EN)],
    number: [t('shifts.print.number', KH), t('shifts.print.number', EN)],
    till: [t('shifts.print.till', KH), t('shifts.print.till', EN)],
    cashier: [t('shifts.print.cashier', KH), t('shifts.print.cashier', EN)],
    opened: [t('shifts.print.opened', KH), t('shifts.print.opened', EN)],
    closed: [t('shifts.print.closed', KH), t('shifts.print.closed', EN)],
    printed: [t('shifts.print.printed', KH), t('shifts.print.printed', EN)],
    sales: [t('shifts.print.sales', KH), t('shifts.print.sales', EN)],
    salesTotal: [t('shifts.print.salesTotal', KH), t('shifts.print.salesTotal', EN)],
    payIn: [t('shifts.print.payIn', KH), t('shifts.print.payIn', EN)],
    payOut: [t('shifts.print.payOut', KH), t('shifts.print.payOut', EN)],
    approvedBy: [t('shifts.print.approvedBy', KH), t('shifts.print.approvedBy', EN)],
    signature: [t('shifts.print.signature', KH), t('shifts.print.signature', EN)],
  } as const;
}

type Label = readonly [string, string] | readonly string[];

/** A label in Khmer with its English beneath (the receipts' way). */
function Bi({ k }: { k: Label }) {
  return (
    <span className="print-bi">
      <span lang="km">{k[0]}</span>
      <span className="print-en">{k[1]}</span>
    </span>
  );
}

function ReportRow({ k, children, strong }: { k: Label; children: ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? 'print-row print-strong' : 'print-row'}>
      <Bi k={k} />
      <span className="print-figure">{children}</span>
    </div>
  );
}

/**
 * The X report (a shift still open: what moved its drawers so far) or the Z report (closed: with
 * the count and the difference), for a receipt roll or the A4 preview (its print is the server's
 * PDF), Khmer first with English beneath. A
 * blind close's figures the user may not see are left out (the server sends them as null).
 */
export function ShiftReport({ shift, paper }: { shift: ShiftDetail; paper: Paper }) {
  const { settings } = useSettings();
  const { t } = useCtx();
  const z = shift.status === 'closed';
  const l = labels(t);
  const methods: Record<string, Label> = {
    cash_usd: [t('shifts.method.cash_usd', KH), t('shifts.method.cash_usd', EN)],
    cash_khr: [t('shifts.method.cash_khr', KH), t('shifts.method.cash_khr', EN)],
    card: [t('shifts.method.card', KH), t('shifts.method.card', EN)],
    bank_transfer: [t('shifts.method.bank_transfer', KH), t('shifts.method.bank_transfer', EN)],
    khqr: [t('shifts.method.khqr', KH), t('shifts.method.khqr', EN)],
  };
  const drawer = (currency: CashCurrency) => {
    const d = shift[currency];
    const m = (value: number) => money(currency, value);
    const minus = (value: number) => (value > 0 ? `−${m(value)}` : m(value));
    return (
      <div key={currency} data-testid={`report-${currency}`}>
        <div className="print-heading">
          <Bi k={currency === 'usd' ? l.usd : l.khr} />
        </div>
        {/* a blind close (null figures) shows none of them until the count is in */}
        {d.float !== null && <ReportRow k={l.float}>{m(d.float)}</ReportRow>}
        {d.cash_in !== null && <ReportRow k={l.cashIn}>{m(d.cash_in)}</ReportRow>}
        {d.change_out !== null && <ReportRow k={l.changeOut}>{minus(d.change_out)}</ReportRow>}
        {d.refunds !== null && d.refunds > 0 && <ReportRow k={l.refunds}>{minus(d.refunds)}</ReportRow>}
        {d.pay_ins !== null && <ReportRow k={l.payIns}>{m(d.pay_ins)}</ReportRow>}
        {d.pay_outs !== null && <ReportRow k={l.payOuts}>{minus(d.pay_outs)}</ReportRow>}
        {d.expected !== null && (
          <ReportRow k={l.expected} strong>
            {m(d.expected)}
          </ReportRow>
        )}
        {d.counted !== null && <ReportRow k={l.counted}>{m(d.counted)}</ReportRow>}
        {d.difference !== null && d.counted !== null && (
          <ReportRow k={l.difference} strong>
            <span data-testid={`report-${currency}-difference`}>{differenceText(d.difference, currency)}</span>
          </ReportRow>
        )}
      </div>
    );
  };
  return (
    <div
      className={paper === 'a4' ? 'print-doc shift-a4' : 'print-doc receipt'}
      data-paper={paper}
      data-testid="shift-report-doc"
    >
      <div className="print-centre">
        <div className="print-title">{titleOf(settings, 'kh')}</div>
        <div>{shift.store_name}</div>
        <div className="print-heading">
          <Bi k={z ? l.z : l.x} />
        </div>
      </div>
      <hr />
      <ReportRow k={l.number}>{shift.number}</ReportRow>
      <ReportRow k={l.till}>{shift.till}</ReportRow>
      <ReportRow k={l.cashier}>{shift.user_name ?? '—'}</ReportRow>
      <ReportRow k={l.opened}>{printedDate(shift.opened_at)}</ReportRow>
      {shift.closed_at && <ReportRow k={l.closed}>{printedDate(shift.closed_at)}</ReportRow>}
      <ReportRow k={l.printed}>{printedDate(new Date().toISOString())}</ReportRow>
      <hr />
      <ReportRow k={l.sales}>{shift.orders_count}</ReportRow>
      {shift.sales_cents !== null && <ReportRow k={l.salesTotal}>{money('usd', shift.sales_cents)}</ReportRow>}
      {shift.payments.map((p) => (
        <div key={p.method} className="print-row">
          <span className="print-bi">
            <span lang="km">{methods[p.method]?.[0] ?? p.method}</span>
            <span className="print-en">{methods[p.method]?.[1] ?? p.method}</span>
          </span>
          <span className="print-figure">{money(p.method === 'cash_khr' ? 'khr' : 'usd', p.amount)}</span>
        </div>
      ))}
      <hr />
      {drawer('usd')}
      <hr />
      {drawer('khr')}
      {shift.movements.length > 0 && <hr />}
      {shift.movements.map((m) => (
        <div key={m.id} className="print-row">
          <span>
            {m.kind === 'pay_in' ? l.payIn[0] : l.payOut[0]} · {m.reason}
          </span>
          <span className="print-figure">
            {m.amount === null ? '—' : `${m.kind === 'pay_out' ? '−' : ''}${money(m.currency, m.amount)}`}
          </span>
        </div>
      ))}
      {shift.approved_by_name && (
        <>
          <hr />
          <ReportRow k={l.approvedBy}>{shift.approved_by_name}</ReportRow>
        </>
      )}
      {z && (
        <>
          <hr />
          <ReportRow k={l.signature}> </ReportRow>
        </>
      )}
    </div>
  );
}

/**
 * The X or Z report on screen, and Print: a roll on a receipt printer (raster) or the browser's;
 * A4 is the server's PDF in the reader's language (kit/pdf.ts, as the statement and the profile).
 */
export function ShiftReportDialog({ shift, onClose }: { shift: ShiftDetail; onClose: () => void }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const [paper, setPaper] = useState<Paper>('80');
  const [fetching, setFetching] = useState(false);
  const printer = usePrint();
  const ready = useBothLanguages();
  const z = shift.status === 'closed';
  return (
    <Modal
      open
      title={
        z ? t('shifts.zReportTitle', { number: shift.number }) : t('shifts.xReportTitle', { number: shift.number })
      }
      onCancel={onClose}
      width={paper === 'a4' ? 880 : 520}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="flex-start" gap={8} wrap>
          <Segmented<Paper>
            value={paper}
            onChange={setPaper}
            aria-label={t('printing.paper')}
            options={[
              { value: '80', label: '80 mm' },
              { value: '58', label: '58 mm' },
              { value: 'a4', label: 'A4' },
            ]}
          />
          {paper === 'a4' ? (
            <Button
              type="primary"
              icon={<FilePdfOutlined />}
              loading={fetching}
              onClick={async () => {
                setFetching(true);
                try {
                  await download(`shifts/${shift.id}/report/pdf`, `${z ? 'z' : 'x'}-report-${shift.number}.pdf`);
                } catch (error) {
                  message.error(failureMessage(error, locale));
                } finally {
                  setFetching(false);
                }
              }}
              data-testid="shift-report-pdf"
            >
              {t('shifts.downloadPdf')}
            </Button>
          ) : (
            <PrintControls
              storeId={shift.store_id}
              document={(width) => <ShiftReport shift={shift} paper={width} />}
              onBrowserPrint={() => printer.print(<ShiftReport shift={shift} paper={paper} />, paper)}
              browserBusy={printer.printing}
            />
          )}
        </Flex>
      }
    >
      <div className={paper === 'a4' ? 'print-preview print-preview-a4' : 'print-preview'}>
        {ready ? <ShiftReport shift={shift} paper={paper} /> : <Spin />}
      </div>
      {printer.portal}
    </Modal>
  );
}
