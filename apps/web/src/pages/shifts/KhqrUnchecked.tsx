import { SyncOutlined } from '@ant-design/icons';
import { khqrUnchecked, single, type KhqrUnchecked as Unchecked, written } from '@depot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Table, Tag, Typography } from 'antd';
import { z } from 'zod';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { api } from '../../lib/http.ts';
import { khqrAmount } from '../orders/khqr/KhqrCard.tsx';

const listed = single(z.array(khqrUnchecked));
const swept = written(z.array(khqrUnchecked));

/**
 * At a shift's close: its KHQR sales Bakong has not confirmed (the cashier confirmed them by
 * hand, or the QR was shown offline), and one button that checks them all with Bakong in one
 * call. What Bakong does not have stays listed: the manager follows it up with the bank.
 */
export function KhqrUnchecked({ shiftId }: { shiftId: number }) {
  const { t, locale } = useCtx();
  const client = useQueryClient();
  const key = ['shifts', shiftId, 'khqr'];
  const rows = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api(`shifts/${shiftId}/khqr`, { signal, schema: listed })).data,
  });
  const check = useMutation({
    mutationFn: () => api(`shifts/${shiftId}/khqr/check`, { method: 'POST', schema: swept }),
    onSuccess: (answer) => client.setQueryData(key, answer.data),
  });
  const shown: Unchecked[] = rows.data ?? [];
  if (!shown.length) return null;
  const result = (row: Unchecked) =>
    row.result === 'confirmed' ? (
      <Tag color="success">{t('shifts.khqr.confirmed')}</Tag>
    ) : row.result === 'mismatch' ? (
      <Tag color="error">{t('shifts.khqr.mismatch')}</Tag>
    ) : row.result === 'not_found' ? (
      <Tag color="warning">{t('shifts.khqr.notFound')}</Tag>
    ) : (
      <Tag>{t('shifts.khqr.unchecked')}</Tag>
    );
  return (
    <Flex vertical gap={8} style={{ marginTop: 12 }} data-testid="khqr-unchecked">
      <Alert
        type={check.data ? 'info' : 'warning'}
        showIcon
        title={check.data ? check.data.message : t('shifts.khqr.title', { count: shown.length })}
        description={check.error ? failureMessage(check.error, locale) : t('shifts.khqr.help')}
        data-testid="khqr-unchecked-note"
      />
      <Table<Unchecked>
        size="small"
        rowKey="md5"
        pagination={false}
        dataSource={shown}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'number', title: t('shifts.khqr.sale'), render: (_, row) => row.order_number },
          { key: 'amount', title: t('shifts.khqr.amount'), render: (_, row) => khqrAmount(row) },
          {
            key: 'how',
            title: t('shifts.khqr.how'),
            render: (_, row) => (row.offline ? t('shifts.khqr.offline') : t('shifts.khqr.byHand')),
          },
          { key: 'result', title: t('shifts.khqr.result'), render: (_, row) => result(row) },
        ]}
      />
      <Flex justify="flex-end">
        <Button
          icon={<SyncOutlined />}
          loading={check.isPending}
          onClick={() => check.mutate()}
          data-testid="khqr-sweep"
        >
          {t('shifts.khqr.check')}
        </Button>
      </Flex>
      {check.data?.data.some((row) => row.result !== 'confirmed') && (
        <Typography.Text type="secondary">{t('shifts.khqr.followUp')}</Typography.Text>
      )}
    </Flex>
  );
}
