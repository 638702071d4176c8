import { DollarOutlined, FilePdfOutlined, PrinterOutlined, ProfileOutlined } from '@ant-design/icons';
import {
  AGEING_BUCKETS,
  allocatePayment,
  type CreditAccount,
  creditAccount,
  customerPayment,
  khrToCents,
  type OpenDocument,
  type Statement,
  type SupplierPayment,
  single,
  statement,
  supplierPayment,
  supplierPaymentInput,
  TENDER_METHODS,
  type TenderMethod,
  todayInCambodia,
  written,
} from '@depot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { PAYMENT_FIELDS, type PaymentDraft, PaymentFields } from '../../components/PaymentFields.tsx';
import { drawerSize } from '../../kit/detail.tsx';
import { RielInput, UsdInput } from '../../kit/inputs.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { failureMessage, resourceKey, useRefreshAll } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { parseWith, useFormErrors } from '../../lib/forms.ts';
import { api, download, newIdempotencyKey, outcomeUnknown } from '../../lib/http.ts';
import { usePrint } from '../../lib/printing/print.tsx';
import { useCurrentRates } from '../rates/rates.tsx';
import { formatDay, usd } from '../reports/common.tsx';

export type Party = 'customers' | 'suppliers';

export function accountKey(party: Party, id: number) {
  return resourceKey(party, id, 'credit');
}

/**
 * A customer's or a supplier's account (issue 17): balance, limit and terms, ageing, the documents
 * still open; for a customer, a payment on account with its allocation shown before it is
 * recorded; for both, a statement for a period, printed or as a PDF.
 */
export function CreditDrawer({
  party,
  id,
  name,
  onClose,
}: {
  party: Party;
  id: number;
  name: string;
  onClose: () => void;
}) {
  const { t } = useCtx();
  const account = useQuery({
    queryKey: accountKey(party, id),
    queryFn: async ({ signal }) => (await api(`${party}/${id}/credit`, { signal, schema: single(creditAccount) })).data,
  });
  const mayPayCustomer = useCan('credit.create') && party === 'customers';
  // as paying one purchase: purchases.approve (costs.view: the drawer is not shown without it)
  const mayPaySupplier = useCan('purchases.approve') && party === 'suppliers';
  const mayPay = mayPayCustomer || mayPaySupplier;
  const [paying, setPaying] = useState(false);
  const [stating, setStating] = useState(false);
  return (
    <Drawer open size={drawerSize(760)} title={`${t('credit.account')}: ${name}`} onClose={onClose} destroyOnHidden>
      {account.isError && !account.data ? (
        <LoadFailed error={account.error} retry={account.refetch} retrying={account.isFetching} />
      ) : !account.data ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={16} data-testid="credit-account">
          <Space wrap>
            {mayPay && (
              <Button
                type="primary"
                icon={<DollarOutlined />}
                disabled={account.data.balance_cents === 0}
                onClick={() => setPaying(true)}
                data-testid="credit-pay"
              >
                {party === 'suppliers' ? t('credit.paySupplier') : t('credit.recordPayment')}
              </Button>
            )}
            <Button icon={<ProfileOutlined />} onClick={() => setStating(true)} data-testid="credit-statement">
              {t('credit.statement')}
            </Button>
          </Space>
          <AccountView party={party} account={account.data} />
        </Flex>
      )}
      {paying &&
        account.data &&
        (party === 'suppliers' ? (
          <SupplierPaymentDialog account={account.data} onClose={() => setPaying(false)} />
        ) : (
          <PaymentDialog account={account.data} onClose={() => setPaying(false)} />
        ))}
      {stating && <StatementDialog party={party} id={id} onClose={() => setStating(false)} />}
    </Drawer>
  );
}

function AccountView({ party, account }: { party: Party; account: CreditAccount }) {
  const { t, locale } = useCtx();
  return (
    <>
      <Flex gap={32} wrap>
        <Statistic
          title={party === 'customers' ? t('credit.owes') : t('credit.weOwe')}
          value={usd(account.balance_cents)}
          valueStyle={{ color: account.balance_cents > 0 ? '#cf1322' : undefined }}
          data-testid="credit-balance"
        />
        {party === 'customers' && (
          <Statistic
            title={t('credit.limit')}
            value={account.credit_limit_cents === null ? t('credit.noLimit') : usd(account.credit_limit_cents)}
            data-testid="credit-limit"
          />
        )}
        {account.available_cents !== null && (
          <Statistic title={t('credit.available')} value={usd(account.available_cents)} />
        )}
        <Statistic title={t('credit.terms')} value={t('credit.days', { count: account.payment_terms_days })} />
      </Flex>
      <Descriptions size="small" bordered column={5} layout="vertical" data-testid="credit-ageing">
        {AGEING_BUCKETS.map((bucket) => (
          <Descriptions.Item key={bucket} label={t(`credit.bucket.${bucket}`)}>
            {usd(account.ageing[bucket])}
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('credit.open')}
      </Typography.Title>
      <Table<OpenDocument>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={account.open}
        data-testid="credit-open"
        locale={{ emptyText: t('credit.nothingOpen') }}
        {...fitTable}
        columns={[
          { key: 'number', title: t('credit.document'), render: (_, d) => d.number },
          { key: 'date', title: t('credit.date'), render: (_, d) => formatDay(d.date, locale) },
          { key: 'due', title: t('credit.dueDate'), render: (_, d) => formatDay(d.due_date, locale) },
          { key: 'total', title: t('credit.total'), align: 'end', render: (_, d) => usd(d.total_cents) },
          { key: 'left', title: t('credit.left'), align: 'end', render: (_, d) => usd(d.due_cents) },
          {
            key: 'late',
            title: t('credit.late'),
            render: (_, d) =>
              d.days_overdue > 0 ? (
                <Tag color="red">{t('credit.days', { count: d.days_overdue })}</Tag>
              ) : (
                <Tag color="green">{t('credit.bucket.current')}</Tag>
              ),
          },
        ]}
      />
    </>
  );
}

/**
 * What both payments on account share: the documents chosen, the form's messages, and the write with
 * one Idempotency-Key per attempt (kept while the outcome is unknown), the server's message and
 * every list read again; `frame` is what their PaymentFrame shows of it.
 */
function usePayment<T>(
  account: CreditAccount,
  path: string,
  schema: z.ZodType<{ message: string; data: T }>,
  fields: readonly string[],
  onClose: () => void,
) {
  const { locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [chosen, setChosen] = useState<number[]>([]);
  const errors = useFormErrors((key) => fields.includes(key));
  const [key, setKey] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: (body: unknown) => api(path, { method: 'POST', body, schema, idempotencyKey: key }),
  });
  /** The payment's answer, or null once refused (the refusal shown in the form). */
  const pay = async (body: unknown): Promise<T | null> => {
    errors.setProblem(null);
    try {
      const answer = await send.mutateAsync(body);
      void message.success(answer.message);
      void refresh();
      return answer.data;
    } catch (error) {
      if (!outcomeUnknown(error)) setKey(newIdempotencyKey());
      errors.fail(error, locale);
      return null;
    }
  };
  const frame = {
    onClose,
    pending: send.isPending,
    problem: errors.problem,
    open: account.open,
    chosen,
    onChoose: setChosen,
  };
  return { chosen, errors, pay, frame };
}

/**
 * The dialog of a payment on account, a customer's or a supplier's: its fields, the refusal above
 * them and the open documents it goes to with each one's share, before it is recorded.
 */
function PaymentFrame({
  title,
  okText,
  onOk,
  onClose,
  pending,
  problem,
  open,
  cents,
  chosen,
  onChoose,
  children,
}: ReturnType<typeof usePayment>['frame'] & {
  title: string;
  okText: string;
  onOk: () => void;
  cents: number;
  children: ReactNode;
}) {
  const { t } = useCtx();
  return (
    <Modal
      open
      width={640}
      title={title}
      okText={okText}
      cancelText={t('kit.cancel')}
      onOk={onOk}
      onCancel={onClose}
      confirmLoading={pending}
      okButtonProps={{ 'data-testid': 'credit-pay-ok', disabled: cents <= 0 }}
      destroyOnHidden
    >
      <Form layout="vertical" component="div" data-testid="credit-pay-form">
        {problem && (
          <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} data-testid="credit-pay-problem" />
        )}
        {children}
        <AllocationTable open={open} cents={cents} chosen={chosen} onChoose={onChoose} />
      </Form>
    </Modal>
  );
}

/** A payment's reference (a transfer's, a card slip's), its message under it. */
function ReferenceField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: { validateStatus?: 'error'; help?: string };
}) {
  const { t } = useCtx();
  return (
    <Form.Item label={t('credit.reference')} htmlFor="credit-reference" {...error}>
      <Input id="credit-reference" maxLength={100} value={value} onChange={(e) => onChange(e.target.value)} />
    </Form.Item>
  );
}

const PAY_FIELDS = ['amount', 'method', 'transaction_id', 'note'];

/** A payment on account: the tender, the orders it pays (all, oldest first, unless some are chosen) and the split, shown before it is recorded. */
function PaymentDialog({ account, onClose }: { account: CreditAccount; onClose: () => void }) {
  const { t } = useCtx();
  const rates = useCurrentRates();
  const [method, setMethod] = useState<TenderMethod>('cash_usd');
  const [amount, setAmount] = useState<number | string | null | undefined>(account.balance_cents);
  const [reference, setReference] = useState('');
  const payment = usePayment(
    account,
    `customers/${account.id}/payments`,
    written(customerPayment),
    PAY_FIELDS,
    onClose,
  );
  const { item } = payment.errors;
  const rateIn = rates.data ? rates.data.rate_in_khr || rates.data.rate_khr : null;
  const cents =
    typeof amount !== 'number' ? 0 : method === 'cash_khr' ? (rateIn ? khrToCents(amount, rateIn) : 0) : amount;

  const submit = async () => {
    const orders = payment.chosen.length ? payment.chosen : null;
    if (await payment.pay({ method, amount, transaction_id: reference, order_ids: orders })) onClose();
  };

  return (
    <PaymentFrame
      {...payment.frame}
      title={t('credit.recordPayment')}
      okText={t('credit.record')}
      onOk={() => void submit()}
      cents={cents}
    >
      <Form.Item label={t('credit.method')} htmlFor="credit-method" {...item('method')}>
        <Select<TenderMethod>
          id="credit-method"
          value={method}
          onChange={(next) => {
            setMethod(next);
            setAmount(next === 'cash_khr' && rateIn ? Math.ceil((cents * rateIn) / 100) : cents);
          }}
          options={TENDER_METHODS.map((m) => ({ value: m, label: t(`credit.methods.${m}`) }))}
          data-testid="credit-method"
        />
      </Form.Item>
      <Form.Item label={t('credit.amount')} htmlFor="credit-amount" {...item('amount')}>
        {method === 'cash_khr' ? (
          <RielInput
            id="credit-amount"
            value={typeof amount === 'number' ? amount : null}
            onChange={setAmount}
            data-testid="credit-amount"
          />
        ) : (
          <UsdInput id="credit-amount" value={amount ?? undefined} onChange={setAmount} data-testid="credit-amount" />
        )}
      </Form.Item>
      {method !== 'cash_usd' && method !== 'cash_khr' && (
        <ReferenceField value={reference} onChange={setReference} error={item('transaction_id')} />
      )}
    </PaymentFrame>
  );
}

/**
 * The open documents a payment on account goes to, with each one's share: oldest first, or only the
 * ticked ones, by contracts' `allocatePayment` (the server's own allocation).
 */
function AllocationTable({
  open,
  cents,
  chosen,
  onChoose,
}: {
  open: OpenDocument[];
  cents: number;
  chosen: number[];
  onChoose: (ids: number[]) => void;
}) {
  const { t } = useCtx();
  const preview = allocatePayment(open, cents, chosen.length ? chosen : null);
  const byId = new Map(open.map((d) => [d.id, d]));
  return (
    <>
      <Typography.Paragraph type="secondary">{t('credit.allocationHelp')}</Typography.Paragraph>
      <Table<OpenDocument>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={open}
        data-testid="credit-allocation"
        rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => onChoose(keys as number[]) }}
        {...fitTable}
        columns={[
          { key: 'number', title: t('credit.document'), render: (_, d) => d.number },
          { key: 'left', title: t('credit.left'), align: 'end', render: (_, d) => usd(d.due_cents) },
          {
            key: 'share',
            title: t('credit.share'),
            align: 'end',
            render: (_, d) => {
              const share = preview.find((s) => s.id === d.id)?.amount_cents ?? 0;
              return share ? (
                <Typography.Text strong data-testid={`credit-share-${d.number}`}>
                  {usd(share)}
                  {share === byId.get(d.id)?.due_cents ? ` ✓` : ''}
                </Typography.Text>
              ) : (
                '—'
              );
            },
          },
        ]}
      />
    </>
  );
}

/**
 * One payment to a supplier over its unpaid purchases (oldest first, or those ticked): the split is
 * shown before it is recorded, and the purchases it paid once it is. Its fields are a purchase's
 * own payment's (`PaymentFields`), as the server pays each purchase as the purchase's Pay does.
 */
function SupplierPaymentDialog({ account, onClose }: { account: CreditAccount; onClose: () => void }) {
  const { t, locale } = useCtx();
  const [draft, setDraft] = useState<PaymentDraft>({
    amount: account.balance_cents,
    method: 'bank_transfer',
    paidAt: todayInCambodia(),
    reference: '',
  });
  const [done, setDone] = useState<SupplierPayment | null>(null);
  const payment = usePayment(
    account,
    `suppliers/${account.id}/payments`,
    written(supplierPayment),
    PAYMENT_FIELDS,
    onClose,
  );
  const cents = typeof draft.amount === 'number' ? draft.amount : 0;

  const submit = async () => {
    const body = {
      amount_cents: draft.amount,
      method: draft.method,
      paid_at: draft.paidAt,
      reference: draft.reference,
      purchase_ids: payment.chosen.length ? payment.chosen : null,
    };
    const parsed = parseWith(supplierPaymentInput, body, locale);
    if (!parsed.data) {
      payment.errors.setProblem(null);
      payment.errors.setErrors(parsed.errors);
      return;
    }
    const paid = await payment.pay(parsed.data);
    if (paid) setDone(paid);
  };

  if (done) {
    return (
      <Modal
        open
        title={t('credit.paySupplier')}
        onCancel={onClose}
        onOk={onClose}
        cancelButtonProps={{ style: { display: 'none' } }}
        okText={t('credit.done')}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('credit.paidOver', { amount: usd(done.amount_cents) })}</Typography.Paragraph>
        <Table
          size="small"
          rowKey="purchase_id"
          pagination={false}
          dataSource={done.allocations}
          data-testid="supplier-paid"
          {...fitTable}
          columns={[
            { key: 'number', title: t('credit.document'), render: (_, a) => a.number },
            {
              key: 'share',
              title: t('credit.share'),
              align: 'end',
              render: (_, a) => <span data-testid={`supplier-paid-${a.number}`}>{usd(a.amount_cents)}</span>,
            },
          ]}
        />
      </Modal>
    );
  }

  return (
    <PaymentFrame
      {...payment.frame}
      title={t('credit.paySupplier')}
      okText={t('credit.pay')}
      onOk={() => void submit()}
      cents={cents}
    >
      <PaymentFields
        id="credit"
        draft={draft}
        onChange={(patch) => setDraft((current) => ({ ...current, ...patch }))}
        errors={payment.errors}
      />
    </PaymentFrame>
  );
}

/** A statement for a period: opening balance, each document, closing balance; print or PDF. */
function StatementDialog({ party, id, onClose }: { party: Party; id: number; onClose: () => void }) {
  const { t, locale } = useCtx();
  const today = todayInCambodia();
  const [range, setRange] = useState<[string, string]>([`${today.slice(0, 8)}01`, today]);
  const [pdfProblem, setPdfProblem] = useState<string | null>(null);
  const printer = usePrint();
  const query = `from=${range[0]}&to=${range[1]}`;
  const data = useQuery({
    queryKey: resourceKey(party, id, 'statement', query),
    queryFn: async ({ signal }) =>
      (await api(`${party}/${id}/statement?${query}`, { signal, schema: single(statement) })).data,
  });
  return (
    <Modal open width={900} title={t('credit.statement')} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical gap={12}>
        <Space wrap>
          <DatePicker.RangePicker
            allowClear={false}
            format="DD/MM/YYYY"
            value={[dayjs(range[0]), dayjs(range[1])]}
            onChange={(values) => {
              if (values?.[0] && values[1]) setRange([values[0].format('YYYY-MM-DD'), values[1].format('YYYY-MM-DD')]);
            }}
            data-testid="statement-range"
          />
          <Button
            icon={<PrinterOutlined />}
            disabled={!data.data || printer.printing}
            onClick={() =>
              data.data &&
              printer.print(
                <div className="print-doc">
                  <StatementView statement={data.data} locale={locale} />
                </div>,
                'a4',
              )
            }
            data-testid="statement-print"
          >
            {t('credit.print')}
          </Button>
          <Button
            icon={<FilePdfOutlined />}
            data-testid="statement-pdf"
            onClick={() => {
              setPdfProblem(null);
              download(`${party}/${id}/statement/pdf?${query}`, `statement-${id}.pdf`).catch((error) =>
                setPdfProblem(failureMessage(error, locale)),
              );
            }}
          >
            PDF
          </Button>
        </Space>
        {pdfProblem && <Alert type="error" showIcon title={pdfProblem} />}
        {data.isError && !data.data ? (
          <LoadFailed error={data.error} retry={data.refetch} retrying={data.isFetching} />
        ) : !data.data ? (
          <Skeleton active />
        ) : (
          <StatementView statement={data.data} locale={locale} />
        )}
      </Flex>
      {printer.portal}
    </Modal>
  );
}

function StatementView({ statement: s, locale }: { statement: Statement; locale: 'kh' | 'en' }) {
  const { t } = useCtx();
  type Line = Statement['lines'][number];
  return (
    <Flex vertical gap={8} data-testid="statement">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {s.party.kind === 'customer' ? t('credit.customerStatement') : t('credit.supplierStatement')}
      </Typography.Title>
      <Typography.Text>
        <strong>{s.party.name}</strong>
        {s.party.phone ? ` · ${s.party.phone}` : ''} · {formatDay(s.from, locale)} – {formatDay(s.to, locale)}
      </Typography.Text>
      <Table<Line>
        size="small"
        rowKey={(l, i) => `${l.number}-${l.kind}-${i}`}
        pagination={false}
        dataSource={s.lines}
        {...fitTable}
        locale={{ emptyText: t('credit.nothingInPeriod') }}
        title={() => (
          <Flex justify="space-between">
            <span>{t('credit.opening')}</span>
            <strong data-testid="statement-opening">{usd(s.opening_cents)}</strong>
          </Flex>
        )}
        footer={() => (
          <Flex justify="space-between">
            <span>{t('credit.closing')}</span>
            <strong data-testid="statement-closing">{usd(s.closing_cents)}</strong>
          </Flex>
        )}
        columns={[
          { key: 'date', title: t('credit.date'), render: (_, l) => formatDay(l.at, locale) },
          { key: 'kind', title: t('credit.kind'), render: (_, l) => t(`credit.kinds.${l.kind}`) },
          { key: 'number', title: t('credit.document'), render: (_, l) => l.number },
          {
            key: 'debit',
            title: t('credit.debit'),
            align: 'end',
            render: (_, l) => (l.debit_cents ? usd(l.debit_cents) : ''),
          },
          {
            key: 'credit',
            title: t('credit.credit'),
            align: 'end',
            render: (_, l) => (l.credit_cents ? usd(l.credit_cents) : ''),
          },
          { key: 'balance', title: t('credit.balance'), align: 'end', render: (_, l) => usd(l.balance_cents) },
        ]}
      />
      <Descriptions size="small" column={4} data-testid="statement-totals">
        <Descriptions.Item label={s.party.kind === 'customer' ? t('credit.sales') : t('credit.purchases')}>
          {usd(s.totals.sales_cents)}
        </Descriptions.Item>
        <Descriptions.Item label={t('credit.payments')}>{usd(s.totals.payments_cents)}</Descriptions.Item>
        {s.party.kind === 'customer' && (
          <>
            <Descriptions.Item label={t('credit.returns')}>{usd(s.totals.returns_cents)}</Descriptions.Item>
            <Descriptions.Item label={t('credit.refunds')}>{usd(s.totals.refunds_cents)}</Descriptions.Item>
          </>
        )}
      </Descriptions>
    </Flex>
  );
}

/** The row's button that opens the account, for who may see credit (suppliers': costs too). */
export function CreditButton({ party, id, name }: { party: Party; id: number; name: string }) {
  const { t } = useCtx();
  const [open, setOpen] = useState(false);
  const sees = useCan('credit.view');
  const costs = useCan('costs.view');
  if (!sees || (party === 'suppliers' && !costs)) return null;
  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<DollarOutlined />}
        onClick={() => setOpen(true)}
        data-testid={`credit-${id}`}
      >
        {t('credit.account')}
      </Button>
      {open && <CreditDrawer party={party} id={id} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}
