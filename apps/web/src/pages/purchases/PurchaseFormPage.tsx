import { formatUsd, purchaseDetail, purchaseInput } from '@depot/contracts';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Switch, Table, Typography } from 'antd';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  baseUnitOf,
  type LineUnit,
  lineColumns,
  lineEdits,
  lineErrors,
  lineKey,
  lineProduct,
  ProductFinder,
} from '../../components/lines.tsx';
import { MoneySummary } from '../../components/MoneySummary.tsx';
import { useSessionStore } from '../../components/stores.tsx';
import { DraftFormPage } from '../../kit/DraftPages.tsx';
import { DateInput, UsdInput } from '../../kit/inputs.tsx';
import { BackTitle } from '../../kit/PageTitle.tsx';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { parseWith, useFormCheck } from '../../lib/forms.ts';
import { localePath } from '../../lib/locale.ts';
import { StoreSelect, SupplierSelect } from '../../resources/parties.tsx';
import {
  type DraftLine,
  type DraftState,
  draftBody,
  draftOf,
  draftState,
  draftTotals,
  emptyDraft,
  type PurchaseDraft,
  purchaseDrafts,
  saveDraft,
} from './draft.ts';

/** The form's fields (its lines are `lines`, the server's `items`); other messages go above the form. */
const NAMES = ['supplier_id', 'store_id', 'purchase_date', 'notes', 'shipping_cents', 'tax_cents', 'ordered', 'lines'];

/** A money field: empty is null in the draft, nothing in the input. */
const money = {
  getValueProps: (value: unknown) => ({ value: value ?? undefined }),
  normalize: (value: unknown) => value ?? null,
};

/** A line's starting price: the product's cost of a base unit times the units in the unit bought. */
function costIn(line: DraftLine, unit: LineUnit | null): number | null {
  return line.product.cost_cents !== null && unit ? line.product.cost_cents * unit.factor : null;
}

function PurchaseForm({
  initial,
  errors: initialErrors,
}: {
  initial: PurchaseDraft;
  errors?: Record<string, string[]>;
}) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const { state } = useLocation();
  const from = draftState(state);
  const [form] = Form.useForm<PurchaseDraft>();
  const { problem, setProblem, place, edited } = useFormCheck(form, NAMES, locale);
  // what the form holds (before it has mounted, its store is empty: the draft it starts from)
  const draft: PurchaseDraft = {
    ...initial,
    ...Form.useWatch((values: PurchaseDraft) => values, { form, preserve: true }),
  };
  const home = useSessionStore();
  const totals = draftTotals(draft);
  const editing = draft.id !== null;
  const locked = draft.locked;

  // The server's refusal that sent the user back here from the review, on its fields.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the errors the page arrived with
  useEffect(() => {
    if (initialErrors) place(lineErrors(initialErrors, 'lines'), t('purchases.fixAndReview'));
  }, []);

  // A new purchase starts in the user's own store, once the stores are known.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the user's store becomes known
  useEffect(() => {
    if (!editing && home.id && form.getFieldValue('store_id') === null) form.setFieldValue('store_id', home.id);
  }, [home.id]);

  const { add, remove } = lineEdits<DraftLine>({
    form,
    list: 'lines',
    make: (row) => ({
      key: lineKey(),
      product: lineProduct(row),
      unit: baseUnitOf(row),
      quantity: 1,
      // the product's cost, where the user may see it (a purchase line's price is entered anyway)
      unit_price_cents: row.cost_usd_cents ?? null,
      lot: '',
      expiry_date: null,
    }),
    // A product on several lines (two lots): the latest line gets one more.
    latest: true,
    edited: () => setProblem(null),
  });
  const { start, end } = lineColumns<DraftLine>(
    { t, locale },
    {
      list: 'lines',
      remove,
      onUnit: (index, unit, line) => {
        // A price still at the product's cost follows the unit (a carton costs 24 pieces).
        const auto = costIn(line, line.unit);
        if (auto !== null && line.unit_price_cents === auto) {
          form.setFieldValue(['lines', index, 'unit_price_cents'], costIn(line, unit));
        }
      },
      // The lot and expiry under the product: the line's money stays in sight on a laptop.
      productWidth: 370,
      below: (_line, index) => (
        <Flex wrap gap={8} style={{ marginTop: 8 }}>
          <Form.Item style={{ margin: 0, flex: '1 1 160px' }} name={['lines', index, 'lot']}>
            <Input
              aria-label={t('lines.lotOf', { line: index + 1 })}
              prefix={<span className="line-field">{t('stock.lot')}</span>}
              maxLength={40}
            />
          </Form.Item>
          <Form.Item
            style={{ margin: 0, flex: '1 1 186px' }}
            name={['lines', index, 'expiry_date']}
            normalize={(value) => value ?? null}
          >
            <DateInput
              aria-label={t('lines.expiryOf', { line: index + 1 })}
              prefix={<span className="line-field">{t('purchases.expires')}</span>}
            />
          </Form.Item>
        </Flex>
      ),
    },
  );

  const back = () => navigate(localePath(from.list ?? '/purchases', locale) + (from.back ?? ''));

  const review = () => {
    const parsed = parseWith(purchaseInput, draftBody(draft), locale);
    if (!parsed.data) {
      place(lineErrors(parsed.errors, 'lines'), t('purchases.fixFirst'));
      return;
    }
    saveDraft(draft);
    void navigate(localePath('/purchases/review', locale), {
      state: { draft, back: from.back, list: from.list } satisfies DraftState,
    });
  };

  const hasErrors = form.getFieldsError().some((field) => field.errors.length > 0);
  return (
    <Card
      title={
        <BackTitle onBack={back}>
          {editing ? t('purchases.editTitle', { number: draft.number ?? '' }) : t('purchases.create')}
        </BackTitle>
      }
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="purchase-form"
        disabled={locked}
        initialValues={initial}
        onValuesChange={edited}
      >
        {locked && <Alert type="warning" showIcon title={t('purchases.locked')} style={{ marginBottom: 16 }} />}
        {problem && (
          <Alert
            type={hasErrors ? 'warning' : 'error'}
            showIcon
            title={problem}
            style={{ marginBottom: 16 }}
            data-testid="form-error"
          />
        )}
        <Row gutter={16}>
          <Col xs={24} md={12} lg={6}>
            <Form.Item name="supplier_id" label={t('purchases.supplier')} htmlFor="purchase-supplier">
              <SupplierSelect id="purchase-supplier" placeholder={t('purchases.chooseSupplier')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} lg={6}>
            <Form.Item name="store_id" label={t('stock.store')} htmlFor="purchase-store">
              <StoreSelect covered id="purchase-store" placeholder={t('transfers.chooseStore')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} lg={6}>
            <Form.Item
              name="purchase_date"
              label={t('purchases.date')}
              htmlFor="purchase-date"
              normalize={(value) => value ?? ''}
            >
              <DateInput id="purchase-date" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} lg={6}>
            {(!editing || draft.status === 'draft') && (
              <Form.Item
                name="ordered"
                valuePropName="checked"
                label={t('purchases.orderNow')}
                htmlFor="purchase-ordered"
                extra={t('purchases.orderNowHelp')}
              >
                <Switch id="purchase-ordered" />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Form.Item name="lines" label={t('purchases.itemsTitle')}>
          <ProductFinder onPick={add} disabled={locked} />
        </Form.Item>
        <Table<DraftLine>
          data-testid="purchase-lines"
          size="small"
          rowKey="key"
          rowClassName="line-row"
          pagination={false}
          dataSource={draft.lines}
          {...fitTable}
          locale={{ emptyText: t('lines.empty') }}
          columns={[
            ...start,
            {
              key: 'price',
              title: t('purchases.unitPrice'),
              width: 116,
              render: (_, _line, index) => (
                <Form.Item style={{ margin: 0 }} name={['lines', index, 'unit_price_cents']} {...money}>
                  <UsdInput aria-label={t('lines.priceOf', { line: index + 1 })} data-testid={`line-${index}-price`} />
                </Form.Item>
              ),
            },
            // The line's total, and under it its share of the shipping (spread by value).
            {
              key: 'total',
              title: t('purchases.lineTotal'),
              align: 'end',
              // "+ shipping $4.62" may go on two lines: the product's cell keeps its room.
              ...wrap(96),
              render: (_, _line, index) => (
                <Flex vertical align="end">
                  <Typography.Text strong data-testid={`line-${index}-total`}>
                    {formatUsd(totals.lines[index]?.line_total_cents ?? 0)}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('purchases.plusShipping')}{' '}
                    <span data-testid={`line-${index}-shipping`}>
                      {formatUsd(totals.lines[index]?.shipping_share_cents ?? 0)}
                    </span>
                  </Typography.Text>
                </Flex>
              ),
            },
            end,
          ]}
        />
        <Flex wrap gap={24} style={{ marginTop: 24 }} align="start">
          <Flex vertical style={{ flex: '1 1 320px', maxWidth: 520 }}>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="shipping_cents" label={t('purchases.shipping')} htmlFor="purchase-shipping" {...money}>
                  <UsdInput id="purchase-shipping" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="tax_cents" label={t('purchases.tax')} htmlFor="purchase-tax" {...money}>
                  <UsdInput id="purchase-tax" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="notes" label={t('purchases.notes')} htmlFor="purchase-notes">
              <Input.TextArea id="purchase-notes" rows={3} maxLength={500} />
            </Form.Item>
          </Flex>
          <MoneySummary
            rows={[
              { key: 'subtotal', label: t('purchases.subtotal'), cents: totals.subtotal_cents },
              { key: 'shipping', label: t('purchases.shipping'), cents: totals.shipping_cents },
              { key: 'tax', label: t('purchases.tax'), cents: totals.tax_cents },
              { key: 'grand', label: t('purchases.grandTotal'), cents: totals.grand_total_cents, strong: true },
            ]}
          />
        </Flex>
        <Flex gap={12} style={{ marginTop: 24 }}>
          <Button type="primary" data-testid="review" onClick={review} disabled={locked}>
            {t('purchases.review')}
          </Button>
          <Button onClick={() => void back()} disabled={false}>
            {t('kit.cancel')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}

const PURCHASES = { api: 'purchases', row: purchaseDetail };

/** `/purchases/create` and `/purchases/update/:id`: supplier, store, date, lines, shipping and tax. */
export function PurchaseFormPage() {
  return (
    <DraftFormPage store={purchaseDrafts} record={PURCHASES} draftOf={draftOf} empty={emptyDraft} Form={PurchaseForm} />
  );
}
