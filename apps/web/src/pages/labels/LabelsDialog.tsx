import { DeleteOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  LABEL_SHEET_NAMES,
  LABEL_SHEETS,
  LABELS_MAX,
  type LabelKind,
  type LabelSheet,
  labelsInput,
  printer,
  printResult,
  written,
} from '@depot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Flex, InputNumber, Modal, Segmented, Select, Space, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { usePage } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatCount } from '../../lib/format.ts';
import { ApiError, api, download } from '../../lib/http.ts';
import { useLabelSettings, useSheetLabel } from './labels.ts';

/** A product to label and how many labels of it. */
export interface LabelLine {
  product_id: number;
  name_en: string;
  name_kh: string;
  quantity: number;
}

/** The server's refusal in its words, with what it says of each field. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError && error.body) {
    const fields = Object.values(error.body.errors ?? {}).flat();
    return fields.length ? fields.join(' ') : (error.body.message ?? String(error.message));
  }
  return String((error as Error)?.message ?? error);
}

/**
 * Barcode labels or shelf tags for some products (the product list's selection, a purchase's
 * received goods, the price changes since a day): a quantity each, then an A4 PDF on the
 * settings' sheet, or a label printer of the user's stores. The server judges every figure.
 */
export function LabelsDialog({
  lines: initial,
  kind: initialKind = 'barcode',
  onClose,
}: {
  lines: LabelLine[] | null;
  kind?: LabelKind;
  onClose: () => void;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [lines, setLines] = useState<LabelLine[]>([]);
  const [kind, setKind] = useState<LabelKind>(initialKind);
  const [sheet, setSheet] = useState<LabelSheet | undefined>();
  const [skip, setSkip] = useState(0);
  const [printerId, setPrinterId] = useState<number | undefined>();
  const [busy, setBusy] = useState<'pdf' | 'print' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const settings = useLabelSettings(initial !== null);
  const mayPrintOn = useCan('printers.generate');
  const mayListPrinters = useCan('printers.list');
  const mayPrint = mayPrintOn && mayListPrinters;
  const printers = usePage('printers', printer, 'filter[status]=active&per_page=100', mayPrint && initial !== null);

  useEffect(() => {
    if (initial) {
      setLines(initial);
      setKind(initialKind);
      setSkip(0);
      setProblem(null);
    }
  }, [initial, initialKind]);
  const chosenSheet = sheet ?? (kind === 'tag' ? settings.data?.data.tag_sheet : settings.data?.data.barcode_sheet);
  const total = lines.reduce((sum, line) => sum + (line.quantity || 0), 0);
  const body = {
    kind,
    items: lines.map((line) => ({ product_id: line.product_id, quantity: line.quantity })),
    sheet: chosenSheet,
    skip,
  };

  const run = async (what: 'pdf' | 'print', work: () => Promise<string | null>) => {
    const parsed = labelsInput.safeParse(body);
    if (!parsed.success) {
      setProblem(t('labels.tooMany', { max: formatCount(LABELS_MAX) }));
      return;
    }
    setBusy(what);
    setProblem(null);
    try {
      const done = await work();
      if (done) void message.success(done);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(null);
    }
  };
  const pdf = () =>
    run('pdf', async () => {
      await download('labels/pdf', kind === 'tag' ? 'shelf-tags.pdf' : 'labels.pdf', { body });
      // a product may have been given its barcode: the lists read it again
      void client.invalidateQueries();
      return null;
    });
  const print = () =>
    run('print', async () => {
      const answer = await api('labels/print', {
        method: 'POST',
        body: { printer_id: printerId, kind, items: body.items },
        schema: written(printResult),
      });
      return answer.message;
    });

  const sheetLabel = useSheetLabel();
  const name = (line: LabelLine) => (locale === 'kh' ? line.name_kh : line.name_en);

  return (
    <Modal
      open={initial !== null}
      title={t('labels.title')}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('kit.cancel')}</Button>
          {mayPrint && (printers.data?.data.length ?? 0) > 0 && (
            <Space.Compact>
              <Select<number>
                style={{ minWidth: 200 }}
                aria-label={t('labels.printer')}
                placeholder={t('labels.printer')}
                value={printerId}
                onChange={setPrinterId}
                options={printers.data?.data.map((p) => ({ value: p.id, label: `${p.name} (${p.paper} mm)` }))}
                virtual={false}
              />
              <Button
                icon={<PrinterOutlined />}
                disabled={!printerId || lines.length === 0}
                loading={busy === 'print'}
                onClick={print}
                data-testid="labels-print"
              >
                {t('labels.print')}
              </Button>
            </Space.Compact>
          )}
          <Button
            type="primary"
            icon={<FilePdfOutlined />}
            disabled={lines.length === 0 || !chosenSheet}
            loading={busy === 'pdf'}
            onClick={pdf}
            data-testid="labels-pdf"
          >
            {t('labels.pdf')}
          </Button>
        </Space>
      }
    >
      <Flex vertical gap={12}>
        <Segmented<LabelKind>
          value={kind}
          onChange={(next) => {
            setKind(next);
            setSheet(undefined);
          }}
          options={[
            { value: 'barcode', label: t('labels.kind.barcode') },
            { value: 'tag', label: t('labels.kind.tag') },
          ]}
          data-testid="labels-kind"
        />
        <Flex wrap gap={12} align="center">
          <label htmlFor="labels-sheet">{t('labels.sheetLabel')}</label>
          <Select<LabelSheet>
            id="labels-sheet"
            style={{ minWidth: 260 }}
            value={chosenSheet}
            onChange={setSheet}
            options={LABEL_SHEET_NAMES.map((value) => ({ value, label: sheetLabel(value) }))}
            virtual={false}
          />
          <label htmlFor="labels-skip">{t('labels.skip')}</label>
          <InputNumber<number>
            id="labels-skip"
            min={0}
            max={chosenSheet ? LABEL_SHEETS[chosenSheet].columns * LABEL_SHEETS[chosenSheet].rows - 1 : 0}
            precision={0}
            value={skip}
            onChange={(v) => setSkip(v ?? 0)}
            style={{ width: 90 }}
          />
        </Flex>
        {problem && <Alert type="error" showIcon title={problem} data-testid="labels-problem" />}
        <Table<LabelLine>
          rowKey="product_id"
          size="small"
          dataSource={lines}
          pagination={false}
          {...fitTable}
          scroll={{ y: 320, x: 'max-content' }}
          columns={[
            { key: 'name', title: t('stock.product'), render: (_, line) => name(line) },
            {
              key: 'quantity',
              title: t('labels.quantity'),
              width: 120,
              render: (_, line) => (
                <InputNumber<number>
                  aria-label={t('labels.quantityOf', { name: name(line) })}
                  min={1}
                  max={LABELS_MAX}
                  precision={0}
                  value={line.quantity}
                  onChange={(v) =>
                    setLines((all) =>
                      all.map((l) => (l.product_id === line.product_id ? { ...l, quantity: v ?? 1 } : l)),
                    )
                  }
                  data-testid={`labels-quantity-${line.product_id}`}
                />
              ),
            },
            {
              key: 'remove',
              width: 48,
              render: (_, line) => (
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('labels.remove', { name: name(line) })}
                  onClick={() => setLines((all) => all.filter((l) => l.product_id !== line.product_id))}
                />
              ),
            },
          ]}
        />
        <Typography.Text type="secondary">{t('labels.total', { count: formatCount(total) })}</Typography.Text>
      </Flex>
    </Modal>
  );
}
