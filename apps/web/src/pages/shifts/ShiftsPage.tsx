import {
  FileTextOutlined,
  LockOutlined,
  MinusCircleOutlined,
  PlusCircleOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  type ApprovalInput,
  type CashCount,
  type CashCurrency,
  countTotal,
  type Shift,
  type ShiftDetail,
  type ShiftMoveKind,
  shiftDetail,
  written,
} from '@depot/contracts';
import { Alert, Button, Descriptions, Flex, Form, Input, InputNumber, Modal, Segmented, Table, Typography } from 'antd';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSessionStore } from '../../components/stores.tsx';
import { ApprovalDialog, needsApproval } from '../../kit/ApprovalDialog.tsx';
import { useDetailParam } from '../../kit/detail.tsx';
import { type DocumentActions, DocumentDrawer, DocumentView } from '../../kit/document.tsx';
import { ListPage } from '../../kit/ListPage.tsx';
import { useWritten } from '../../kit/queries.ts';
import type { ResourceDef } from '../../kit/resource.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useFormCheck } from '../../lib/forms.ts';
import { api, newIdempotencyKey, outcomeUnknown } from '../../lib/http.ts';
import { StoreSelect } from '../../resources/parties.tsx';
import { differenceText, ShiftStatusTag, shifts } from '../../resources/shifts.tsx';
import { CashCountInput, countKey, emptyCount, money } from './CashCount.tsx';
import { KhqrUnchecked } from './KhqrUnchecked.tsx';
import { useShiftSettings } from './queries.ts';
import { ShiftReportDialog } from './ShiftReport.tsx';

export { useShiftSettings } from './queries.ts';

/**
 * A keyed write of a shift's dialog: one Idempotency-Key per attempt, kept while the outcome is
 * unknown (a retry after a lost answer does not act twice); a 422's errors on the fields.
 */
function useShiftWrite(path: string, names: readonly string[]) {
  const { locale } = useCtx();
  const done = useWritten();
  const key = useRef<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm();
  const { problem, setProblem, place, fail, edited } = useFormCheck(form, names, locale);
  const send = async (body: Record<string, unknown>, approval?: ApprovalInput) => {
    key.current ??= newIdempotencyKey();
    setBusy(true);
    try {
      const answer = await api(path, {
        method: 'POST',
        body: approval ? { ...body, approval } : body,
        schema: written(shiftDetail),
        idempotencyKey: key.current,
      });
      key.current = null;
      await done(answer);
      return answer.data;
    } catch (error) {
      if (!outcomeUnknown(error)) key.current = null;
      throw error;
    } finally {
      setBusy(false);
    }
  };
  /** Sends; a refusal is shown (fields, or above the form) and answers null; 'approval' when a manager is needed. */
  const submit = async (body: Record<string, unknown>): Promise<ShiftDetail | 'approval' | null> => {
    place({});
    try {
      return await send(body);
    } catch (error) {
      if (needsApproval(error)) return 'approval';
      fail(error, countKey);
      return null;
    }
  };
  return { send, submit, busy, problem, setProblem, form, edited };
}

const OpenContext = createContext<() => void>(() => {});

function OpenShiftButton() {
  const { t } = useCtx();
  const open = useContext(OpenContext);
  if (!useCan('shifts.create')) return null;
  return (
    <Button type="primary" icon={<PlusOutlined />} data-testid="open-shift" onClick={open}>
      {t('shifts.open')}
    </Button>
  );
}

const listDef: ResourceDef<Shift> = { ...shifts, toolbar: () => <OpenShiftButton /> };

/** Opening a shift: the store, the till's name and the float counted note by note. */
function OpenShiftDialog({ onClose, onOpened }: { onClose: () => void; onOpened: (id: number) => void }) {
  const { t } = useCtx();
  const settings = useShiftSettings();
  const home = useSessionStore();
  const write = useShiftWrite('shifts', ['store_id', 'till', 'float']);
  const { form } = write;
  // the user's own store, and an empty float of the settings' notes, once they are known
  useEffect(() => {
    if (home.id && form.getFieldValue('store_id') == null) form.setFieldValue('store_id', home.id);
  }, [home.id, form]);
  useEffect(() => {
    if (settings.data && !form.getFieldValue('float')) {
      form.setFieldValue(
        'float',
        emptyCount({ usd: settings.data.usd_denominations, khr: settings.data.khr_denominations }),
      );
    }
  }, [settings.data, form]);
  const submit = async () => {
    const { store_id, till, float } = form.getFieldsValue(true);
    const opened = await write.submit({ store_id, till, float });
    if (opened && opened !== 'approval') onOpened(opened.id);
  };
  return (
    <Modal
      open
      title={t('shifts.open')}
      onCancel={onClose}
      width={760}
      okText={t('shifts.openNow')}
      onOk={() => void submit()}
      okButtonProps={{ loading: write.busy, 'data-testid': 'open-shift-submit' } as never}
      destroyOnHidden
    >
      {write.problem && <Alert type="error" showIcon title={write.problem} style={{ marginBottom: 12 }} />}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ store_id: home.id ?? null, till: '' }}
        onValuesChange={write.edited}
      >
        <Flex gap={12} wrap>
          <Form.Item
            name="store_id"
            label={t('shifts.store')}
            style={{ flex: 1, minWidth: 220 }}
            getValueProps={(value) => ({ value: value ?? undefined })}
            normalize={(value) => value ?? null}
          >
            <StoreSelect covered />
          </Form.Item>
          <Form.Item name="till" label={t('shifts.till')} style={{ flex: 1, minWidth: 220 }}>
            <Input data-testid="shift-till" maxLength={30} placeholder={t('shifts.tillHint')} />
          </Form.Item>
        </Flex>
        <Typography.Paragraph type="secondary">{t('shifts.floatHelp')}</Typography.Paragraph>
        <CashCountInput field="float" />
      </Form>
    </Modal>
  );
}

/** A pay-in or a pay-out: the currency, the amount (dollars typed, cents sent; riel whole) and why. */
function MoveDialog({ shift, kind, onClose }: { shift: ShiftDetail; kind: ShiftMoveKind; onClose: () => void }) {
  const { t } = useCtx();
  const [approving, setApproving] = useState(false);
  const write = useShiftWrite(`shifts/${shift.id}/movements`, ['amount', 'reason']);
  const { form } = write;
  const currency: CashCurrency = Form.useWatch('currency', form) ?? 'usd';
  const body = () => {
    const { amount, reason } = form.getFieldsValue(true) as { amount: number | null; reason: string };
    const minor = amount === null ? null : currency === 'usd' ? Math.round(amount * 100) : Math.round(amount);
    return { kind, currency, amount: minor, reason };
  };
  // a pay-out that takes the shift's pay-outs to the threshold needs a manager (the server says when)
  const submit = async () => {
    const done = await write.submit(body());
    if (done === 'approval') setApproving(true);
    else if (done) onClose();
  };
  return (
    <Modal
      open
      title={t(kind === 'pay_in' ? 'shifts.payIn' : 'shifts.payOut')}
      onCancel={onClose}
      okText={t(kind === 'pay_in' ? 'shifts.payIn' : 'shifts.payOut')}
      onOk={() => void submit()}
      okButtonProps={{ loading: write.busy, 'data-testid': 'move-submit' } as never}
      destroyOnHidden
    >
      {write.problem && <Alert type="error" showIcon title={write.problem} style={{ marginBottom: 12 }} />}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ currency: 'usd', amount: null, reason: '' }}
        onValuesChange={write.edited}
      >
        <Form.Item name="currency" label={t('shifts.currency')}>
          <Segmented<CashCurrency>
            data-testid="move-currency"
            options={[
              { value: 'usd', label: t('shifts.dollars') },
              { value: 'khr', label: t('shifts.riel') },
            ]}
          />
        </Form.Item>
        <Form.Item name="amount" label={t('shifts.amount')}>
          <InputNumber<number>
            data-testid="move-amount"
            style={{ width: '100%' }}
            min={0}
            precision={currency === 'usd' ? 2 : 0}
            prefix={currency === 'usd' ? '$' : undefined}
            suffix={currency === 'khr' ? '៛' : undefined}
          />
        </Form.Item>
        <Form.Item name="reason" label={t('shifts.reason')}>
          <Input data-testid="move-reason" maxLength={255} />
        </Form.Item>
      </Form>
      {approving && (
        <ApprovalDialog
          title={t('shifts.payOut')}
          help={t('shifts.payOutApprovalHelp')}
          okText={t('shifts.payOut')}
          onClose={() => setApproving(false)}
          onApprove={async (approval) => {
            await write.send(body(), approval);
            setApproving(false);
            onClose();
          }}
        />
      )}
    </Modal>
  );
}

/**
 * The close: each currency counted note by note. A blind close shows only what was counted; a
 * difference beyond the threshold asks for a manager's name and password (the ApprovalDialog).
 */
function CloseDialog({ shift, onClose }: { shift: ShiftDetail; onClose: (closed: ShiftDetail | null) => void }) {
  const { t } = useCtx();
  const settings = useShiftSettings();
  const [approving, setApproving] = useState(false);
  const write = useShiftWrite(`shifts/${shift.id}/close`, ['counted', 'note']);
  const { form } = write;
  const count: CashCount | undefined = Form.useWatch('counted', { form, preserve: true });
  // an empty count of the settings' notes, once they are known
  useEffect(() => {
    if (settings.data && !form.getFieldValue('counted')) {
      form.setFieldValue(
        'counted',
        emptyCount({ usd: settings.data.usd_denominations, khr: settings.data.khr_denominations }),
      );
    }
  }, [settings.data, form]);
  const body = () => {
    const { counted, note } = form.getFieldsValue(true) as { counted: CashCount | undefined; note: string };
    return { counted: counted ?? null, note };
  };
  const submit = async () => {
    const done = await write.submit(body());
    if (done === 'approval') setApproving(true);
    else if (done) onClose(done);
  };
  const expected = (currency: CashCurrency) => {
    const value = shift[currency].expected;
    if (value === null || !count) return null;
    return (
      <Typography.Text>
        {t('shifts.expected')}: {money(currency, value)} · {t('shifts.difference')}:{' '}
        {differenceText(countTotal(count[currency]) - value, currency)}
      </Typography.Text>
    );
  };
  return (
    <Modal
      open
      title={t('shifts.close')}
      onCancel={() => onClose(null)}
      width={760}
      okText={t('shifts.closeNow')}
      onOk={() => void submit()}
      okButtonProps={{ loading: write.busy, 'data-testid': 'close-submit' } as never}
      destroyOnHidden
    >
      {write.problem && <Alert type="error" showIcon title={write.problem} style={{ marginBottom: 12 }} />}
      <Typography.Paragraph type="secondary">
        {shift.blind ? t('shifts.blindHelp') : t('shifts.countHelp')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ note: '' }} onValuesChange={write.edited}>
        <CashCountInput field="counted" />
        {!shift.blind && (
          <Flex vertical style={{ marginTop: 12 }}>
            {expected('usd')}
            {expected('khr')}
          </Flex>
        )}
        <KhqrUnchecked shiftId={shift.id} />
        <Form.Item name="note" label={t('shifts.note')} style={{ marginTop: 12 }}>
          <Input data-testid="close-note" maxLength={255} />
        </Form.Item>
      </Form>
      {approving && (
        <ApprovalDialog
          title={t('shifts.close')}
          help={t('shifts.approvalHelp')}
          okText={t('shifts.closeNow')}
          onClose={() => setApproving(false)}
          onApprove={async (approval) => {
            const closed = await write.send(body(), approval);
            setApproving(false);
            onClose(closed);
          }}
        />
      )}
    </Modal>
  );
}

type Dialog = { kind: 'pay_in' | 'pay_out' | 'close' | 'report' };

function ShiftDetails({ detail }: { detail: ShiftDetail }) {
  const { t, locale } = useCtx();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [report, setReport] = useState<ShiftDetail | null>(null);
  const actions: DocumentActions<ShiftDetail> = {
    payIn: {
      label: t('shifts.payIn'),
      ability: 'move',
      icon: <PlusCircleOutlined />,
      open: () => setDialog({ kind: 'pay_in' }),
    },
    payOut: {
      label: t('shifts.payOut'),
      ability: 'move',
      icon: <MinusCircleOutlined />,
      open: () => setDialog({ kind: 'pay_out' }),
    },
    close: {
      label: t('shifts.close'),
      primary: true,
      icon: <LockOutlined />,
      open: () => setDialog({ kind: 'close' }),
    },
    report: {
      label: detail.status === 'open' ? t('shifts.xReport') : t('shifts.zReport'),
      ability: null,
      icon: <FileTextOutlined />,
      open: () => setReport(detail),
    },
  };
  const currencyRow = (currency: CashCurrency) => {
    const d = detail[currency];
    const m = (value: number | null) => (value === null ? '—' : money(currency, value));
    return {
      key: currency,
      currency: currency === 'usd' ? t('shifts.dollars') : t('shifts.riel'),
      float: m(d.float),
      cash_in: m(d.cash_in),
      change_out: d.change_out === null || d.refunds === null ? '—' : m(d.change_out + d.refunds),
      moves: `+${m(d.pay_ins)} / −${m(d.pay_outs)}`,
      expected: m(d.expected),
      counted: m(d.counted),
      difference: differenceText(d.difference, currency),
    };
  };
  return (
    <DocumentView api="shifts" record={detail} row={shiftDetail} actions={actions} testId="shift">
      {detail.overnight && <Alert type="warning" showIcon title={t('shifts.overnightHelp')} />}
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'status', label: t('fields.status'), children: <ShiftStatusTag row={detail} t={t} /> },
          { key: 'cashier', label: t('shifts.cashier'), children: detail.user_name ?? '—' },
          { key: 'store', label: t('shifts.store'), children: detail.store_name },
          { key: 'till', label: t('shifts.till'), children: detail.till },
          { key: 'opened', label: t('shifts.openedAt'), children: formatDateTime(detail.opened_at, locale) },
          {
            key: 'closed',
            label: t('shifts.closedAt'),
            children: detail.closed_at ? formatDateTime(detail.closed_at, locale) : '—',
          },
          {
            key: 'sales',
            label: t('shifts.sales'),
            children:
              detail.sales_cents === null
                ? `${detail.orders_count}`
                : `${detail.orders_count} · ${money('usd', detail.sales_cents)}`,
          },
          ...(detail.approved_by_name
            ? [{ key: 'approved', label: t('shifts.approvedBy'), children: detail.approved_by_name }]
            : []),
          ...(detail.close_note ? [{ key: 'note', label: t('shifts.note'), children: detail.close_note }] : []),
        ]}
      />
      {detail.blind && <Typography.Text type="secondary">{t('shifts.blindHelp')}</Typography.Text>}
      {/* a blind close: the server sends none of the drawer's figures until the count is in */}
      {!detail.blind && (
        <Table
          size="small"
          pagination={false}
          data-testid="shift-drawers"
          dataSource={[currencyRow('usd'), currencyRow('khr')]}
          {...fitTable}
          columns={[
            { key: 'currency', dataIndex: 'currency', title: t('shifts.currency') },
            { key: 'float', dataIndex: 'float', title: t('shifts.float'), align: 'end' },
            { key: 'cash_in', dataIndex: 'cash_in', title: t('shifts.cashIn'), align: 'end' },
            { key: 'change_out', dataIndex: 'change_out', title: t('shifts.changeOut'), align: 'end' },
            { key: 'moves', dataIndex: 'moves', title: t('shifts.moves'), align: 'end' },
            { key: 'expected', dataIndex: 'expected', title: t('shifts.expected'), align: 'end' },
            { key: 'counted', dataIndex: 'counted', title: t('shifts.counted'), align: 'end' },
            { key: 'difference', dataIndex: 'difference', title: t('shifts.difference'), align: 'end' },
          ]}
        />
      )}
      {detail.movements.length > 0 && (
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={detail.movements}
          {...fitTable}
          columns={[
            {
              key: 'kind',
              title: t('shifts.movement'),
              render: (_, m) => t(m.kind === 'pay_in' ? 'shifts.payIn' : 'shifts.payOut'),
            },
            { key: 'reason', title: t('shifts.reason'), dataIndex: 'reason' },
            {
              key: 'amount',
              title: t('shifts.amount'),
              align: 'end',
              render: (_, m) => (m.amount === null ? '—' : money(m.currency, m.amount)),
            },
            { key: 'at', title: t('shifts.at'), render: (_, m) => formatDateTime(m.created_at, locale) },
          ]}
        />
      )}
      {(dialog?.kind === 'pay_in' || dialog?.kind === 'pay_out') && (
        <MoveDialog shift={detail} kind={dialog.kind} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'close' && (
        <CloseDialog
          shift={detail}
          onClose={(closed) => {
            setDialog(null);
            // the Z report follows the close
            if (closed) setReport(closed);
          }}
        />
      )}
      {report && <ShiftReportDialog shift={report} onClose={() => setReport(null)} />}
    </DocumentView>
  );
}

function ShiftDrawer() {
  const { t } = useCtx();
  return (
    <DocumentDrawer
      api="shifts"
      row={shiftDetail}
      width={860}
      title={(number) => t('shifts.detailTitle', { number })}
      loadingTitle={t('shifts.details')}
      status={(detail) => <ShiftStatusTag row={detail} t={t} />}
    >
      {(detail) => <ShiftDetails detail={detail} />}
    </DocumentDrawer>
  );
}

/** `/shifts`: the shifts (one's own, or a manager's stores'), opening one, and each one's drawer. */
export function ShiftsPage() {
  // `?open=1` (the till's "Open a shift" link) starts with the opening dialog
  const [params, setParams] = useSearchParams();
  const [opening, setOpening] = useState(params.get('open') === '1');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page is reached by the link
  useEffect(() => {
    if (params.has('open'))
      setParams(
        (next) => {
          next.delete('open');
          return next;
        },
        { replace: true },
      );
  }, []);
  const { open } = useDetailParam();
  return (
    <OpenContext.Provider value={() => setOpening(true)}>
      <ListPage def={listDef} />
      <ShiftDrawer />
      {opening && (
        <OpenShiftDialog
          onClose={() => setOpening(false)}
          onOpened={(id) => {
            setOpening(false);
            open(id);
          }}
        />
      )}
    </OpenContext.Provider>
  );
}
