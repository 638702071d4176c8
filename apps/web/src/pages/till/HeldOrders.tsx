import { PlayCircleOutlined } from '@ant-design/icons';
import { customerName, formatUsd, type Order, order, orderDetail, single } from '@depot/contracts';
import { Alert, App, Button, Drawer, Empty, Flex, Popconfirm, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { drawerSize } from '../../kit/detail.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { failureMessage, usePage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';
import type { Cart } from './cart.ts';
import { useCatalogue } from './catalogue.ts';
import { useOnline } from './OfflineBar.tsx';

export const HELD_QUERY = new URLSearchParams({
  per_page: '50',
  'filter[status]': 'held',
  sort: '-order_date',
}).toString();

/**
 * The orders parked at the till (held): one is resumed into the cart, to go on selling it. A held
 * order is the server's (selling it is a PUT, never queued on the device): offline the drawer says
 * so and resumes none; its combos and products come from the device when resumed (catalogue.ts).
 */
export function HeldOrdersDrawer({
  open,
  onClose,
  onResume,
  replacing,
}: {
  open: boolean;
  onClose: () => void;
  onResume: (cart: Cart) => void;
  /** The cart on screen has lines: resuming replaces them, so it asks first. */
  replacing: boolean;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const catalogue = useCatalogue();
  const online = useOnline();
  const held = usePage('orders', order, HELD_QUERY, open);
  const [loading, setLoading] = useState<number | null>(null);

  const resume = async (row: Order) => {
    setLoading(row.id);
    try {
      const detail = (await api(`orders/${row.id}`, { schema: single(orderDetail) })).data;
      onResume(await catalogue.cartOf(detail));
      onClose();
    } catch (error) {
      void message.error(failureMessage(error, locale));
    } finally {
      setLoading(null);
    }
  };

  const rows = held.data?.data ?? [];
  return (
    <Drawer open={open} onClose={onClose} title={t('pos.heldOrders')} size={drawerSize(480)} destroyOnHidden>
      {!online && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="held-offline"
          title={t('offline.needsConnection')}
          description={t('offline.heldHelp')}
        />
      )}
      {held.isError && !held.data ? (
        <LoadFailed error={held.error} retry={held.refetch} retrying={held.isFetching} />
      ) : held.isPending ? (
        <Skeleton active />
      ) : rows.length === 0 ? (
        <Empty description={t('pos.noHeld')} />
      ) : (
        <Flex vertical gap={8} data-testid="held-orders">
          {rows.map((row) => {
            const button = (
              <Button
                type="primary"
                icon={<PlayCircleOutlined />}
                loading={loading === row.id}
                disabled={!online}
                data-testid={`resume-${row.id}`}
                onClick={replacing ? undefined : () => void resume(row)}
              >
                {t('pos.resume')}
              </Button>
            );
            return (
              <Flex key={row.id} className="pos-held" justify="space-between" align="center" gap={12}>
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text strong>{row.number}</Typography.Text>
                  <Typography.Text type="secondary" ellipsis>
                    {customerName(row.customer_name, locale)} · {t('pos.itemsCount', { count: row.items_count })}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(row.order_date, locale)}
                    {row.cashier_name ? ` · ${row.cashier_name}` : ''}
                  </Typography.Text>
                </Flex>
                <Flex vertical align="flex-end" gap={4}>
                  <Typography.Text strong>{formatUsd(row.total_cents)}</Typography.Text>
                  {/* another cashier's held cart is theirs: the server allows resuming it to them and managers */}
                  {row.abilities.update !== true ? null : replacing && online ? (
                    <Popconfirm
                      title={t('pos.replaceTitle')}
                      description={<div style={{ maxWidth: 280 }}>{t('pos.replaceHelp')}</div>}
                      okText={t('pos.resume')}
                      cancelText={t('kit.cancel')}
                      onConfirm={() => resume(row)}
                    >
                      {button}
                    </Popconfirm>
                  ) : (
                    button
                  )}
                </Flex>
              </Flex>
            );
          })}
        </Flex>
      )}
    </Drawer>
  );
}
