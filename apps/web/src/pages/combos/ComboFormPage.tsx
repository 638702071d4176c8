import { comboDetail, comboInput } from '@depot/contracts';
import { Alert, Button, Card, Col, Flex, Form, Input, Radio, Row, Table, Typography } from 'antd';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  baseUnitOf,
  lineColumns,
  lineEdits,
  lineErrors,
  lineKey,
  lineProduct,
  ProductFinder,
} from '../../components/lines.tsx';
import { DraftFormPage } from '../../kit/DraftPages.tsx';
import { UsdInput } from '../../kit/inputs.tsx';
import { BackTitle } from '../../kit/PageTitle.tsx';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { parseWith, useFormCheck } from '../../lib/forms.ts';
import { localePath } from '../../lib/locale.ts';
import {
  type ComboDraft,
  type ComboLine,
  type ComboState,
  comboBody,
  comboDraftOf,
  comboDrafts,
  comboState,
  emptyCombo,
  saveComboDraft,
} from './comboDraft.ts';

/** The form's fields (its lines are `lines`, the server's `items`); other messages go above the form. */
const NAMES = ['name_en', 'name_kh', 'description', 'sku', 'barcode', 'selling_price_cents', 'status', 'lines'];

function ComboForm({ initial, errors: initialErrors }: { initial: ComboDraft; errors?: Record<string, string[]> }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const { state } = useLocation();
  const from = comboState(state);
  const [form] = Form.useForm<ComboDraft>();
  const { problem, setProblem, place, edited } = useFormCheck(form, NAMES, locale);
  // what the form holds (before it has mounted, its store is empty: the draft it starts from)
  const draft: ComboDraft = { ...initial, ...Form.useWatch((values: ComboDraft) => values, { form, preserve: true }) };
  const editing = draft.id !== null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the errors the page arrived with
  useEffect(() => {
    if (initialErrors) place(lineErrors(initialErrors, 'lines'), t('purchases.fixAndReview'));
  }, []);

  const { add, remove } = lineEdits<ComboLine>({
    form,
    list: 'lines',
    make: (row) => ({ key: lineKey(), product: lineProduct(row), unit: baseUnitOf(row), quantity: 1 }),
    // One more of a product already in its own unit; in another unit, a line of its own.
    same: (line, row) => line.product.id === row.id && line.unit?.id === row.unit_id,
    edited: () => setProblem(null),
  });
  const { start, end } = lineColumns<ComboLine>(
    { t, locale },
    { list: 'lines', remove, quantityTestId: (index) => `combo-line-${index}-quantity` },
  );

  const back = () => navigate(localePath(from.list ?? '/combos', locale) + (from.back ?? ''));

  const review = () => {
    const parsed = parseWith(comboInput, comboBody(draft), locale);
    if (!parsed.data) {
      place(lineErrors(parsed.errors, 'lines'), t('purchases.fixFirst'));
      return;
    }
    saveComboDraft(draft);
    void navigate(localePath('/combos/review', locale), {
      state: { draft, back: from.back, list: from.list } satisfies ComboState,
    });
  };

  const text = (key: 'name_en' | 'name_kh' | 'sku' | 'barcode', label: string, max: number, lang?: string) => (
    <Form.Item name={key} label={label} htmlFor={`combo-${key}`}>
      <Input id={`combo-${key}`} lang={lang} maxLength={max} />
    </Form.Item>
  );
  const names = [
    <Col key="kh" xs={24} md={12}>
      {text('name_kh', t('fields.name_kh'), 50, 'km')}
    </Col>,
    <Col key="en" xs={24} md={12}>
      {text('name_en', t('fields.name_en'), 50, 'en')}
    </Col>,
  ];

  return (
    <Card title={<BackTitle onBack={back}>{editing ? t('combos.edit') : t('combos.create')}</BackTitle>}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="combo-form"
        style={{ maxWidth: 960 }}
        initialValues={initial}
        onValuesChange={edited}
      >
        {problem && (
          <Alert
            type={form.getFieldsError().some((field) => field.errors.length > 0) ? 'warning' : 'error'}
            showIcon
            title={problem}
            style={{ marginBottom: 16 }}
            data-testid="form-error"
          />
        )}
        <Row gutter={16}>
          {locale === 'kh' ? names : [...names].reverse()}
          <Col xs={24} md={8}>
            {text('sku', t('fields.sku'), 40)}
          </Col>
          <Col xs={24} md={8}>
            {text('barcode', t('fields.barcode'), 50)}
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="selling_price_cents"
              label={t('combos.sellingPrice')}
              htmlFor="combo-price"
              getValueProps={(value) => ({ value: value ?? undefined })}
              normalize={(value) => value ?? null}
            >
              <UsdInput id="combo-price" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="description" label={t('fields.description')} htmlFor="combo-description">
          <Input.TextArea id="combo-description" rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item name="status" label={t('fields.status')}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: 'active', label: t('status.active') },
              { value: 'inactive', label: t('status.inactive') },
            ]}
          />
        </Form.Item>
        <Form.Item name="lines" label={t('combos.items')}>
          <ProductFinder onPick={add} />
        </Form.Item>
        <Table<ComboLine>
          data-testid="combo-lines"
          size="small"
          rowKey="key"
          rowClassName="line-row"
          pagination={false}
          dataSource={draft.lines}
          {...fitTable}
          locale={{ emptyText: t('lines.empty') }}
          columns={[...start, end]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('combos.reviewHelp')}
        </Typography.Paragraph>
        <Flex gap={12}>
          <Button type="primary" data-testid="review" onClick={review}>
            {t('purchases.review')}
          </Button>
          <Button onClick={() => void back()}>{t('kit.cancel')}</Button>
        </Flex>
      </Form>
    </Card>
  );
}

const COMBOS = { api: 'combos', row: comboDetail };

/** `/combos/create` and `/combos/update/:id`: names, codes, the selling price and the items. */
export function ComboFormPage() {
  return (
    <DraftFormPage store={comboDrafts} record={COMBOS} draftOf={comboDraftOf} empty={emptyCombo} Form={ComboForm} />
  );
}
