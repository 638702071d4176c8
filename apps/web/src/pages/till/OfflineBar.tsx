import { CloudOutlined, DisconnectOutlined, PrinterOutlined, SyncOutlined } from '@ant-design/icons';
import { formatUsd } from '@depot/contracts';
import { Alert, Badge, Button, Flex, List, Popover, Tag, Typography } from 'antd';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useSession } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { outboxDb, type QueuedSale, sendsSale, syncOutbox } from '../../lib/offline/outbox.ts';
import { noteReached, onReachability, PROBE_MS, serverReached } from '../../lib/reachability.ts';

// the receipt's code loads when a receipt is first printed from the queue, not with the till
// (the service worker keeps every built script, so it loads offline too)
const ReceiptDialog = lazy(() => import('../orders/receipts.tsx').then((m) => ({ default: m.ReceiptDialog })));

const RETRY_MS = 30_000;

/** Whether the browser says it is connected, kept current. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => {
      // the connection is back: the server counts as reached until a request says otherwise
      noteReached(true);
      setOnline(true);
    };
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** Whether the last requests reached the server (lib/reachability.ts). */
function useReached(): boolean {
  const [reached, setReached] = useState(serverReached);
  useEffect(() => onReachability(() => setReached(serverReached())), []);
  return reached;
}

/** The sales kept on this device and not yet on the server (every tab sees the same, live). */
export function useQueuedSales(): QueuedSale[] {
  return useLiveQuery(() => outboxDb().sales.orderBy('seq').toArray(), [], []) ?? [];
}

/**
 * Sends the queue while the till is open: at once, when the connection returns, and again while
 * sales wait: 30 s after a run the server answered, 5 s after one it did not (`stopped`), since the
 * browser's online flag is no sign the server is back (a page reloaded offline can say online all
 * along, and no `online` event comes). Only the tab holding the lock sends (outbox.ts). `reached`:
 * the server answered again after a request that got none (lib/reachability.ts) also sends at once.
 */
export function useOutboxSync(online: boolean, waiting: number, reached = true): void {
  // the latest refresh, read when a run sent something: a new function each render, it must not
  // restart the runs (each restart sends at once)
  const refreshAll = useRefreshAll();
  const refresh = useRef(refreshAll);
  refresh.current = refreshAll;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reached is the trigger, not an input
  useEffect(() => {
    if (!online || waiting === 0) return;
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const result = await syncOutbox().catch(() => null);
      if (!active) return;
      if (result && result.sent > 0) void refresh.current();
      timer = setTimeout(run, result?.stopped ? PROBE_MS : RETRY_MS);
    };
    void run();
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [online, waiting, reached]);
}

/** A kept sale's receipt, printed again from the queue (its device number, marked unsynced). */
function ReprintButton({
  sale,
  onPrint,
  testId,
}: {
  sale: QueuedSale;
  onPrint: (sale: QueuedSale) => void;
  testId: string;
}) {
  const { t } = useCtx();
  // sales kept before receipts were kept with them have none to print
  if (!sale.receipt) return <Typography.Text type="secondary">{t('offline.noReceipt')}</Typography.Text>;
  return (
    <Button size="small" icon={<PrinterOutlined />} onClick={() => onPrint(sale)} data-testid={testId}>
      {t('print.printReceipt')}
    </Button>
  );
}

/**
 * The till's connection and its unsynced sales: how many wait, which failed and why, with retry.
 * The queue (a click on the count) lists this cashier's kept sales, waiting or refused, each with
 * its receipt to print again: the one `ReceiptDialog`, marked unsynced, with no server asked.
 */
export function OfflineBar() {
  const { t, locale } = useCtx();
  const online = useOnline();
  const reached = useReached();
  const { userId } = useSession();
  const queued = useQueuedSales();
  // this cashier's sales are sent; another's wait for them to sign in here again (never dropped)
  const sales = queued.filter((s) => sendsSale(s, userId));
  const others = new Map<string, number>();
  for (const s of queued) {
    if (!sendsSale(s, userId)) others.set(s.user_name ?? '?', (others.get(s.user_name ?? '?') ?? 0) + 1);
  }
  const waiting = sales.filter((s) => s.status === 'waiting').length;
  const failed = sales.filter((s) => s.status === 'failed');
  const [retrying, setRetrying] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const [printing, setPrinting] = useState<QueuedSale | null>(null);
  useOutboxSync(online, waiting, reached);
  const print = (sale: QueuedSale) => {
    setListOpen(false);
    setPrinting(sale);
  };

  const retry = async () => {
    setRetrying(true);
    await syncOutbox({ retryFailed: true }).catch(() => null);
    setRetrying(false);
  };

  return (
    <Flex vertical gap={4} data-testid="offline-bar">
      <Flex gap={8} align="center" wrap>
        {online && reached ? (
          <Tag icon={<CloudOutlined />} color="green" data-testid="connection" data-online="true">
            {t('offline.online')}
          </Tag>
        ) : (
          <Tag icon={<DisconnectOutlined />} color="red" data-testid="connection" data-online="false">
            {t('offline.offline')}
          </Tag>
        )}
        {sales.length > 0 && (
          <Popover
            title={t('offline.queueTitle')}
            trigger="click"
            open={listOpen}
            onOpenChange={setListOpen}
            content={
              <List
                size="small"
                data-testid="queue-list"
                style={{ maxHeight: 360, overflowY: 'auto', minWidth: 320 }}
                dataSource={sales}
                renderItem={(sale) => (
                  <List.Item
                    data-testid={`queued-${sale.client_id}`}
                    extra={<ReprintButton sale={sale} onPrint={print} testId={`reprint-${sale.client_id}`} />}
                  >
                    <Flex vertical>
                      <span>
                        <Typography.Text code>{sale.client_id}</Typography.Text>{' '}
                        <Typography.Text strong>{formatUsd(sale.total_cents)}</Typography.Text>{' '}
                        {sale.status === 'failed' ? (
                          <Tag color="red">{t('offline.refused')}</Tag>
                        ) : (
                          <Tag color="orange">{t('offline.unsynced')}</Tag>
                        )}
                      </span>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {formatDateTime(sale.sold_at, locale)}
                      </Typography.Text>
                    </Flex>
                  </List.Item>
                )}
              />
            }
          >
            <Badge count={waiting} size="small" color="orange">
              <Tag
                icon={<SyncOutlined spin={online && waiting > 0} />}
                data-testid="queue-count"
                data-count={waiting}
                style={{ cursor: 'pointer' }}
              >
                {t('offline.waiting', { count: waiting })}
              </Tag>
            </Badge>
          </Popover>
        )}
      </Flex>
      {[...others].map(([name, count]) => (
        <Typography.Text key={name} type="secondary" data-testid="queue-others">
          {t('offline.othersWaiting', { name, count })}
        </Typography.Text>
      ))}
      {failed.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="queue-failed"
          title={t('offline.failed', { count: failed.length })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 16 }}>
              {failed.map((sale) => (
                <li key={sale.key}>
                  {sale.client_id}: {sale.error}{' '}
                  <ReprintButton sale={sale} onPrint={print} testId={`reprint-failed-${sale.client_id}`} />
                </li>
              ))}
            </ul>
          }
          action={
            <Button
              size="small"
              onClick={() => void retry()}
              loading={retrying}
              disabled={!online}
              data-testid="queue-retry"
            >
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {printing?.receipt && (
        <Suspense fallback={null}>
          <ReceiptDialog order={printing.receipt} unsynced onClose={() => setPrinting(null)} />
        </Suspense>
      )}
    </Flex>
  );
}
