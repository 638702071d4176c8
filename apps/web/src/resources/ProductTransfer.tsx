import { DownloadOutlined, FileExcelOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { type ProductImportError, product, productImportError, productImportResult } from '@depot/contracts';
import { Alert, App, Button, Dropdown, Flex, Modal, Progress, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { failureMessage, useWrite } from '../kit/queries.ts';
import { useCtx } from '../kit/useCtx.ts';
import { useCan } from '../lib/access.tsx';
import { ApiError, download, saveFile, upload } from '../lib/http.ts';

type Format = 'xlsx' | 'csv';

/** The list's query without its page: an export holds every product the list would show. */
function exportPath(query: string, format: Format, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(query);
  params.delete('page');
  params.delete('per_page');
  params.set('format', format);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return `products/export?${params.toString()}`;
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

function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, locale } = useCtx();
  const { refresh } = useWrite({ api: 'products', row: product });
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const [working, setWorking] = useState(false);

  const send = async (file: File) => {
    setWorking(true);
    setOutcome({ state: 'sending', sent: 0 });
    const form = new FormData();
    form.append('file', file);
    try {
      const answer = await upload('products/import', form, {
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
      title={t('import.title')}
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
        <Typography.Paragraph style={{ margin: 0 }}>{t('import.help')}</Typography.Paragraph>
        <Flex gap={8} wrap>
          <Button
            icon={<FileExcelOutlined />}
            onClick={() => void download(exportPath('', 'xlsx', { template: 'true' }), 'products-template.xlsx')}
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
                    onClick={() => saveFile(errorReport(rows, headers), 'products-import-errors.csv')}
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
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const canImport = useCan('products.create');
  const [importing, setImporting] = useState(false);

  const exportAs = async (format: Format) => {
    try {
      await download(exportPath(query, format), `products.${format}`);
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
          ],
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
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </>
  );
}
