import { CameraOutlined, CheckOutlined, CloseOutlined, RollbackOutlined, SendOutlined } from '@ant-design/icons';
import {
  type CountDetail,
  channelNames,
  countDetail,
  type Locale,
  type StockCountLine,
  written,
} from '@depot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Input, InputNumber, List, Space, Typography } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Loaded } from '../../kit/detail.tsx';
import { type DocumentActions, DocumentView } from '../../kit/document.tsx';
import { BackTitle } from '../../kit/PageTitle.tsx';
import { failureMessage, recordKey, useRecord } from '../../kit/queries.ts';
import { costText } from '../../kit/resourceParts.tsx';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { formatCount } from '../../lib/format.ts';
import { ApiError, api, newIdempotencyKey, outcomeUnknown } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { useChannel } from '../../lib/realtime.ts';
import { CountStatusTag } from '../../resources/counts.tsx';
import { useScanner } from '../till/scanner.ts';

// the camera and its decoder load only when a counter opens the camera
const CameraScanner = lazy(() => import('./CameraScanner.tsx').then((m) => ({ default: m.CameraScanner })));

const answer = written(countDetail);
const API = 'stock-counts';

interface Scan {
  code?: string;
  product_id?: number;
  quantity: number;
  mode?: 'add' | 'set';
}

/** Why a scan was refused: the field's own message (an unknown code, a wrong quantity), else the server's. */
function scanFailure(error: unknown, locale: Locale): string {
  const fields = error instanceof ApiError ? Object.values(error.body?.errors ?? {}).flat() : [];
  return fields.length > 0 ? fields.join(' ') : failureMessage(error, locale);
}

/**
 * The scans of a count: each one posted with its own Idempotency-Key; one whose answer was lost
 * keeps its key, so Retry counts it once. The answer (the count as it is now) replaces the page's.
 */
function useScans(count: CountDetail) {
  const { locale } = useCtx();
  const client = useQueryClient();
  const [last, setLast] = useState<{ ok: boolean; text: string } | null>(null);
  const [lost, setLost] = useState<{ scan: Scan; key: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (scan: Scan, key = newIdempotencyKey()) => {
    setBusy(true);
    try {
      const result = await api(`${API}/${count.id}/scans`, {
        method: 'POST',
        body: scan,
        schema: answer,
        idempotencyKey: key,
      });
      client.setQueryData(recordKey(API, count.id), result.data);
      setLost(null);
      setLast({ ok: true, text: result.message });
      return true;
    } catch (error) {
      setLost(outcomeUnknown(error) ? { scan, key } : null);
      setLast({ ok: false, text: scanFailure(error, locale) });
      // the count moved on (submitted, cancelled): show it as it is
      void client.invalidateQueries({ queryKey: recordKey(API, count.id) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { send, last, lost, busy, retry: () => lost && void send(lost.scan, lost.key) };
}

/** Where a counter scans: a scanner (a keyboard), the camera, or a code typed, and how many each counts. */
function ScanPanel({ scans }: { scans: ReturnType<typeof useScans> }) {
  const { t } = useCtx();
  const { send, last, lost, busy, retry } = scans;
  const [code, setCode] = useState('');
  const [quantity, setQuantity] = useState<number | null>(1);
  const [camera, setCamera] = useState(false);
  const each = quantity && quantity > 0 ? quantity : 1;
  const codeField = useRef<HTMLInputElement>(null);

  useScanner((scanned) => void send({ code: scanned, quantity: each }));

  const typed = async () => {
    const value = code.trim();
    if (!value) return;
    if (await send({ code: value, quantity: each })) setCode('');
  };

  return (
    <Card size="small" data-testid="count-scan">
      <Flex vertical gap={12}>
        <Flex gap={8} wrap>
          <Input.Search
            ref={(input) => {
              codeField.current = input?.input ?? null;
            }}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            onSearch={() => void typed()}
            enterButton={t('counts.count')}
            placeholder={t('counts.codeHint')}
            aria-label={t('counts.code')}
            loading={busy}
            data-testid="count-code"
            style={{ flex: '1 1 220px' }}
          />
          <Space.Compact style={{ flex: '0 0 auto' }}>
            <Space.Addon>{t('counts.each')}</Space.Addon>
            <InputNumber
              min={1}
              precision={0}
              value={quantity}
              onChange={setQuantity}
              aria-label={t('counts.each')}
              data-testid="count-quantity"
              style={{ width: 90 }}
            />
          </Space.Compact>
        </Flex>
        <Button
          icon={<CameraOutlined />}
          block
          size="large"
          type={camera ? 'default' : 'primary'}
          ghost={!camera}
          onClick={() => setCamera((on) => !on)}
          data-testid="count-camera-toggle"
        >
          {camera ? t('counts.cameraOff') : t('counts.cameraOn')}
        </Button>
        {camera && (
          <Suspense fallback={<Typography.Text type="secondary">{t('counts.cameraStarting')}</Typography.Text>}>
            <CameraScanner onCode={(scanned) => void send({ code: scanned, quantity: each })} />
          </Suspense>
        )}
        {last && (
          <Alert
            type={last.ok ? 'success' : 'error'}
            showIcon
            message={last.text}
            data-testid="count-last"
            action={
              lost ? (
                <Button size="small" onClick={retry}>
                  {t('common.retry')}
                </Button>
              ) : undefined
            }
          />
        )}
      </Flex>
    </Card>
  );
}

/** "+3" / "−2" / "0", in the page's numerals. */
function signed(n: number): string {
  if (n > 0) return `+${formatCount(n)}`;
  if (n < 0) return `−${formatCount(-n)}`;
  return formatCount(0);
}

/** One line: the product, and what was counted; for who may approve, what was expected and the difference. */
function LineItem({
  line,
  canCorrect,
  onCorrect,
}: {
  line: StockCountLine;
  canCorrect: boolean;
  onCorrect: (n: number) => void;
}) {
  const { t, locale } = useCtx();
  const [editing, setEditing] = useState<number | null>(null);
  const name = locale === 'kh' ? line.product_name_kh : line.product_name_en;
  const difference = line.difference;
  const tone = difference === undefined || difference === 0 ? undefined : difference > 0 ? 'success' : 'danger';
  return (
    <List.Item data-testid={`count-line-${line.product_id}`}>
      <Flex justify="space-between" align="center" gap={12} style={{ width: '100%' }}>
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {line.sku}
            {line.barcode ? ` · ${line.barcode}` : ''}
          </Typography.Text>
          {line.expected !== undefined && (
            <Typography.Text style={{ fontSize: 13 }} data-testid="count-line-expected">
              {t('counts.expectedIs', { n: formatCount(line.expected) })}
              {' · '}
              <Typography.Text type={tone} strong>
                {signed(difference ?? 0)}
              </Typography.Text>
              {line.difference_value_cents !== undefined && line.difference_value_cents !== 0 && (
                <> · {costText(line.difference_value_cents)}</>
              )}
            </Typography.Text>
          )}
        </Flex>
        {editing !== null ? (
          <Space.Compact>
            <InputNumber
              min={0}
              precision={0}
              value={editing}
              onChange={(n) => setEditing(n ?? 0)}
              style={{ width: 90 }}
            />
            <Button
              type="primary"
              icon={<CheckOutlined />}
              aria-label={t('kit.save')}
              onClick={() => {
                onCorrect(editing);
                setEditing(null);
              }}
            />
          </Space.Compact>
        ) : (
          <Flex vertical align="end">
            <Typography.Text strong style={{ fontSize: 20 }} data-testid="count-line-counted">
              {formatCount(line.counted)}
            </Typography.Text>
            {canCorrect && (
              <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setEditing(line.counted)}>
                {t('counts.correct')}
              </Button>
            )}
          </Flex>
        )}
      </Flex>
    </List.Item>
  );
}

function CountBody({ count }: { count: CountDetail }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const client = useQueryClient();
  // the other counters' scans and the manager's steps, as they happen: the count is read again
  useChannel<{ id: number }>(channelNames.store(count.store_id), 'StockCountChanged', (changed) => {
    if (changed.id === count.id) void client.invalidateQueries({ queryKey: recordKey(API, count.id) });
  });
  const counting = count.abilities.scan === true;
  const scans = useScans(count);
  const actions: DocumentActions<CountDetail> = {
    submit: {
      label: t('counts.submit'),
      primary: true,
      icon: <SendOutlined />,
      confirm: () => t('counts.submitHelp'),
      keepText: t('counts.keep'),
    },
    approve: {
      label: t('counts.approve'),
      primary: true,
      icon: <CheckOutlined />,
      confirm: () => t('counts.approveHelp'),
      keepText: t('counts.keep'),
    },
    reopen: { label: t('counts.reopen'), icon: <RollbackOutlined /> },
    cancel: {
      label: t('counts.cancel'),
      danger: true,
      icon: <CloseOutlined />,
      confirm: () => t('counts.cancelHelp'),
      keepText: t('counts.keep'),
    },
  };
  const where = [count.store_name, count.zone].filter(Boolean).join(' · ');
  return (
    <Flex vertical gap={12} style={{ maxWidth: 720 }}>
      <Flex vertical gap={4}>
        <BackTitle onBack={() => navigate(localePath('/stocks/counts', locale))} label={t('counts.back')}>
          {t('counts.title', { number: count.number })}
        </BackTitle>
        <Flex gap={8} align="center" wrap>
          <CountStatusTag status={count.status} t={t} />
          <Typography.Text type="secondary">{where}</Typography.Text>
        </Flex>
      </Flex>
      <DocumentView api={API} record={count} row={countDetail} actions={actions} testId="count">
        {counting && <ScanPanel scans={scans} />}
        {!counting && count.status === 'open' && <Alert type="info" showIcon message={t('counts.notCounting')} />}
        {count.difference_value_cents !== undefined && count.lines.length > 0 && (
          <Typography.Text data-testid="count-value">
            {t('counts.valueOfDifferences')}:{' '}
            <Typography.Text strong>{costText(count.difference_value_cents)}</Typography.Text>
          </Typography.Text>
        )}
        <List
          size="small"
          bordered
          header={
            <Flex justify="space-between">
              <Typography.Text strong>{t('counts.linesCounted', { count: count.lines.length })}</Typography.Text>
              <Typography.Text type="secondary">{t('counts.counted')}</Typography.Text>
            </Flex>
          }
          // antd's empty text is drawn too faint to read (4.5:1): the page's secondary text is not
          locale={{ emptyText: <Typography.Text type="secondary">{t('counts.empty')}</Typography.Text> }}
          dataSource={count.lines}
          data-testid="count-lines"
          renderItem={(line) => (
            <LineItem
              line={line}
              canCorrect={counting}
              onCorrect={(n) => void scans.send({ product_id: line.product_id, quantity: n, mode: 'set' })}
            />
          )}
        />
        {count.approved_at && (
          <Typography.Text type="secondary">
            {t('counts.approvedOn', {
              date: formatDateTime(count.approved_at, locale),
              name: count.approved_by_name ?? '—',
            })}
          </Typography.Text>
        )}
      </DocumentView>
    </Flex>
  );
}

/** `/stocks/counts/:id`: one count. A counter scans (blind); a manager reviews the differences and approves. */
export function CountPage() {
  const id = Number(useParams().id);
  const record = useRecord({ api: API, row: countDetail }, Number.isInteger(id) && id > 0 ? id : null);
  return (
    <Loaded record={record} card>
      {(count) => <CountBody count={count} />}
    </Loaded>
  );
}
