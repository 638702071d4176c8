import { DownloadOutlined, FileExcelOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import {
  type Permission,
  type ProductImportError,
  priceList,
  product,
  productImportError,
  productImportResult,
} from '@depot/contracts';
import { Alert, App, Button, Dropdown, Flex, Modal, Progress, Table, Typography, Upload } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import type { z } from 'zod';
import { failureMessage, useWrite } from '../kit/queries.ts';
import type { Row } from '../kit/resource.ts';
import { useCtx } from '../kit/useCtx.ts';
import { useCan } from '../lib/access.tsx';
import { ApiError, download, saveFile, upload } from '../lib/http.ts';

type Format = 'xlsx' | 'csv';

/** What is exported and imported: products, or price lists, through the same dialog. */
interface SheetKind {
  api: 'products' | 'price-lists';
  row: z.ZodType<Row>;
  create: Permission;
  formats: Format[];
  title: (t: TFunction) => string;
  help: (t: TFunction) => string;
}

const PRODUCTS: SheetKind = {
  api: 'products',
  row: product,
  create: 'products.create',
  formats: ['xlsx', 'csv'],
  title: (t) => t('import.title'),
  help: (t) => t('import.help'),
};

const PRICE_LISTS: SheetKind = {
  api: 'price-lists',
  row: priceList,
  // the server also asks for prices.update (policies/prices.ts)
  create: 'price_lists.create',
  formats: ['xlsx'],
  title: (t) => t('import.pricesTitle'),
  help: (t) => t('import.pricesHelp'),
};

/** The list's query without its page: an export holds every record the list would show. */
function exportPath(kind: SheetKind, query: string, format: Format, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(query);
  params.delete('page');
  params.delete('per_page');
  if (kind.api === 'products') params.set('format', format);
  else params.delete('search'); // a price list is not searched by words
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return `${kind.api}/export?${params.toString()}`;
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
function cell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows the server refused, as a CSV to fix the file by (with a BOM, so Excel reads Khmer). */
function errorReport(rows: ProductImportError['rows'], headers: string[]): Blob {
  const lines = [headers, ...rows.map((r) => [r.row, r.column, r.value, r.message])].map((line) =>
    line.map(cell).join(','),
  );
  return new Blob([`\uFEFF${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
}

type Outcome =
  | { state: 'idle' }
  | { state: 'sending'; sent: number }
  | { state: 'done'; message: string }
  | { state: 'refused'; message: string; errors: ProductImportError | null };

function ImportDialog({ kind, open, onClose }: { kind: SheetKind; open: boolean; onClose: () => void }) {
  const { t, locale } = useCtx();
  const { refresh } = useWrite({ api: kind.api, row: kind.row });
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const [working, setWorking] = useState(false);

  const send = async (file: File) => {
    setWorking(true);
    setOutcome({ state: 'sending', sent: 0 });
    const form = new FormData();
    form.append('file', file);
    try {
      const answer = await upload(`${kind.api}/import`, form, {
        schema: productImportResult,
        onProgress: (sent) => setOutcome({ state: 'sending', sent }),
      });
      setOutcome({ state: 'done', message: answer.message });
      await refresh();
    } catch (error) {
      const parsed =
        error instanceof ApiError && error.status === 422 ? productImportError.safeParse(error.body) : null;
      setOutcome({
        state: 'refused',
        message: failureMessage(error, locale),
        errors: parsed?.success ? parsed.data : null,
      });
    } finally {
      setWorking(false);
    }
  };

  const close = () => {
    if (working) return;
    setOutcome({ state: 'idle' });
    onClose();
  };

  const rows = outcome.state === 'refused' ? (outcome.errors?.rows ?? []) : [];
  const headers = [t('import.row'), t('import.column'), t('import.value'), t('import.message')];

  return (
    <Modal
      open={open}
      title={kind.title(t)}
      onCancel={close}
      width={760}
      footer={
        <Button onClick={close} disabled={working} data-testid="import-close">
          {t('import.close')}
        </Button>
      }
      destroyOnHidden
    >
      <Flex vertical gap={16} data-testid="import-dialog">
        <Typography.Paragraph style={{ margin: 0 }}>{kind.help(t)}</Typography.Paragraph>
        <Flex gap={8} wrap>
          <Button
            icon={<FileExcelOutlined />}
            onClick={() =>
              void download(exportPath(kind, '', 'xlsx', { template: 'true' }), `${kind.api}-template.xlsx`)
            }
          >
            {t('import.template')}
          </Button>
        </Flex>
        <Upload.Dragger
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          showUploadList={false}
          disabled={working}
          beforeUpload={(file) => {
            void send(file);
            return false;
          }}
          data-testid="import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('import.drop')}</p>
          <p className="ant-upload-hint">{t('import.formats')}</p>
        </Upload.Dragger>

        {outcome.state === 'sending' && (
          <div data-testid="import-progress">
            <Progress percent={Math.round(outcome.sent * 100)} status="active" />
            <Typography.Text type="secondary">
              {outcome.sent < 1 ? t('import.sending') : t('import.checking')}
            </Typography.Text>
          </div>
        )}
        {outcome.state === 'done' && (
          <Alert type="success" showIcon title={outcome.message} data-testid="import-result" />
        )}
        {outcome.state === 'refused' && (
          <Flex vertical gap={12} data-testid="import-result">
            <Alert
              type="error"
              showIcon
              title={outcome.message}
              description={outcome.errors?.errors?.file?.join(' ')}
            />
            {rows.length > 0 && (
              <>
                <Flex justify="space-between" align="center">
                  <Typography.Text strong>{t('import.rowsWrong', { count: rows.length })}</Typography.Text>
                  <Button
                    icon={<DownloadOutlined />}
                    data-testid="import-report"
                    onClick={() => saveFile(errorReport(rows, headers), `${kind.api}-import-errors.csv`)}
                  >
                    {t('import.report')}
                  </Button>
                </Flex>
                <Table
                  size="small"
                  rowKey={(r) => `${r.row}-${r.column}-${r.message}`}
                  dataSource={rows}
                  pagination={{ pageSize: 8, showSizeChanger: false }}
                  columns={[
                    { key: 'row', title: headers[0], dataIndex: 'row', width: 70 },
                    { key: 'column', title: headers[1], dataIndex: 'column', width: 130 },
                    { key: 'value', title: headers[2], dataIndex: 'value', ellipsis: true },
                    { key: 'message', title: headers[3], dataIndex: 'message' },
                  ]}
                />
              </>
            )}
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}

/** Export what the list shows (Excel or CSV) and, for those who may add products, import a file. */
export function ProductTransfer({ query }: { query: string }) {
  return <SheetTransfer kind={PRODUCTS} query={query} />;
}

/** The same for a price list (Excel only). */
export function PriceListTransfer({ query }: { query: string }) {
  return <SheetTransfer kind={PRICE_LISTS} query={query} />;
}

function SheetTransfer({ kind, query }: { kind: SheetKind; query: string }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const canImport = useCan(kind.create);
  const [importing, setImporting] = useState(false);

  const exportAs = async (format: Format) => {
    try {
      await download(exportPath(kind, query, format), `${kind.api}.${format}`);
    } catch (error) {
      void message.error(failureMessage(error, locale));
    }
  };

  return (
    <>
      <Dropdown
        menu={{
          items: [
            { key: 'xlsx', label: t('export.xlsx'), icon: <FileExcelOutlined /> },
            { key: 'csv', label: t('export.csv'), icon: <DownloadOutlined /> },
          ].filter((item) => kind.formats.includes(item.key as Format)),
          onClick: ({ key }) => void exportAs(key as Format),
        }}
      >
        <Button icon={<DownloadOutlined />} data-testid="export">
          {t('export.button')}
        </Button>
      </Dropdown>
      {canImport && (
        <Button icon={<UploadOutlined />} data-testid="import" onClick={() => setImporting(true)}>
          {t('import.button')}
        </Button>
      )}
      <ImportDialog kind={kind} open={importing} onClose={() => setImporting(false)} />
    </>
  );
}
