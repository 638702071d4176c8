import { ArrowLeftOutlined } from '@ant-design/icons';
import { formatUsd, purchaseDetail, purchaseInput } from '@depot/contracts';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Switch, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  baseUnitOf,
  type LineUnit,
  lineColumns,
  lineEdits,
  lineKey,
  lineProduct,
  ProductFinder,
} from '../../components/lines.tsx';
import { MoneySummary } from '../../components/MoneySummary.tsx';
import { useSessionStore } from '../../components/stores.tsx';
import { DraftFormPage } from '../../kit/DraftPages.tsx';
import { DateInput, UsdInput } from '../../kit/inputs.tsx';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { parseWith, useFormErrors } from '../../lib/forms.ts';
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

/** The keys of the form's fields; other messages (none expected) go above the form. */
const FIELD =
  /^(supplier_id|store_id|purchase_date|notes|shipping_cents|tax_cents|ordered|items|items\.\d+\.(product_id|unit_id|quantity|unit_price_cents|lot|expiry_date))$/;

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
  const [draft, setDraft] = useState(initial);
  const { item, clear, setErrors, errors, problem, setProblem, place } = useFormErrors((key) => FIELD.test(key));
  const home = useSessionStore();
  const totals = draftTotals(draft);
  const editing = draft.id !== null;
  const locked = draft.locked;

  // The server's refusal that sent the user back here from the review, on its fields.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the errors the page arrived with
  useEffect(() => {
    if (initialErrors) place(initialErrors, t('purchases.fixAndReview'));
  }, []);

  // A new purchase starts in the user's own store, once the stores are known.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the user's store becomes known
  useEffect(() => {
    if (!editing && home.id && draft.store_id === null) setDraft((d) => ({ ...d, store_id: home.id }));
  }, [home.id]);

  const set = <K extends keyof PurchaseDraft>(key: K, value: PurchaseDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    clear(key);
    setProblem(null);
  };
  const { change, add, remove } = lineEdits<DraftLine>({
    update: (lines) => setDraft((d) => ({ ...d, lines: lines(d.lines) })),
    clear,
    setErrors,
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
      item,
      change,
      remove,
      onUnit: (index, unit, line) => {
        // A price still at the product's cost follows the unit (a carton costs 24 pieces).
        const auto = costIn(line, line.unit);
        const patch: Partial<DraftLine> = { unit };
        if (auto !== null && line.unit_price_cents === auto) patch.unit_price_cents = costIn(line, unit);
        change(index, patch);
      },
      // The lot and expiry under the product: the line's money stays in sight on a laptop.
      productWidth: 370,
      below: (line, index) => (
        <Flex wrap gap={8} style={{ marginTop: 8 }}>
          <Form.Item style={{ margin: 0, flex: '1 1 160px' }} {...item(`items.${index}.lot`)}>
            <Input
              aria-label={t('lines.lotOf', { line: index + 1 })}
              prefix={<span className="line-field">{t('stock.lot')}</span>}
              maxLength={40}
              value={line.lot}
              onChange={(event) => change(index, { lot: event.target.value })}
            />
          </Form.Item>
          <Form.Item style={{ margin: 0, flex: '1 1 186px' }} {...item(`items.${index}.expiry_date`)}>
            <DateInput
              aria-label={t('lines.expiryOf', { line: index + 1 })}
              prefix={<span className="line-field">{t('purchases.expires')}</span>}
              value={line.expiry_date}
              onChange={(next) => change(index, { expiry_date: next ?? null })}
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
      place(parsed.errors, t('purchases.fixFirst'));
      return;
    }
    saveDraft(draft);
    void navigate(localePath('/purchases/review', locale), {
      state: { draft, back: from.back, list: from.list } satisfies DraftState,
    });
  };

  const hasErrors = Object.keys(errors).length > 0;
  return (
    <Card
      title={
        <Flex align="center" gap={8}>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('kit.back')} onClick={() => void back()} />
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
            {editing ? t('purchases.editTitle', { number: draft.number ?? '' }) : t('purchases.create')}
          </Typography.Title>
        </Flex>
      }
    >
      <Form layout="vertical" requiredMark={false} data-testid="purchase-form" disabled={locked}>
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
            <Form.Item label={t('purchases.supplier')} htmlFor="purchase-supplier" {...item('supplier_id')}>
              <SupplierSelect
                id="purchase-supplier"
                value={draft.supplier_id}
                onChange={(next) => set('supplier_id', next)}
                placeholder={t('purchases.chooseSupplier')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} lg={6}>
            <Form.Item label={t('stock.store')} htmlFor="purchase-store" {...item('store_id')}>
              <StoreSelect
                covered
                id="purchase-store"
                value={draft.store_id}
                onChange={(next) => set('store_id', next)}
                placeholder={t('transfers.chooseStore')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} lg={6}>
            <Form.Item label={t('purchases.date')} htmlFor="purchase-date" {...item('purchase_date')}>
              <DateInput
                id="purchase-date"
                value={draft.purchase_date}
                onChange={(next) => set('purchase_date', next ?? '')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} lg={6}>
            {(!editing || draft.status === 'draft') && (
              <Form.Item label={t('purchases.orderNow')} htmlFor="purchase-ordered" extra={t('purchases.orderNowHelp')}>
                <Switch id="purchase-ordered" checked={draft.ordered} onChange={(next) => set('ordered', next)} />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Form.Item label={t('purchases.itemsTitle')} {...item('items')}>
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
              render: (_, line, index) => (
                <Form.Item style={{ margin: 0 }} {...item(`items.${index}.unit_price_cents`)}>
                  <UsdInput
                    aria-label={t('lines.priceOf', { line: index + 1 })}
                    data-testid={`line-${index}-price`}
                    value={line.unit_price_cents ?? undefined}
                    onChange={(next) => change(index, { unit_price_cents: next ?? null })}
                  />
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
                <Form.Item label={t('purchases.shipping')} htmlFor="purchase-shipping" {...item('shipping_cents')}>
                  <UsdInput
                    id="purchase-shipping"
                    value={draft.shipping_cents ?? undefined}
                    onChange={(next) => set('shipping_cents', next ?? null)}
                  />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label={t('purchases.tax')} htmlFor="purchase-tax" {...item('tax_cents')}>
                  <UsdInput
                    id="purchase-tax"
                    value={draft.tax_cents ?? undefined}
                    onChange={(next) => set('tax_cents', next ?? null)}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label={t('purchases.notes')} htmlFor="purchase-notes" {...item('notes')}>
              <Input.TextArea
                id="purchase-notes"
                rows={3}
                maxLength={500}
                value={draft.notes}
                onChange={(event) => set('notes', event.target.value)}
              />
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
