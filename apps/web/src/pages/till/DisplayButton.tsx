import {
  CheckCircleFilled,
  DesktopOutlined,
  DisconnectOutlined,
  LinkOutlined,
  TabletOutlined,
} from '@ant-design/icons';
import { displayPairingResponse, displayPairingStatus, formatTime } from '@depot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Divider, Flex, Modal, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { openDisplay, tabletPaired } from '../../lib/customerDisplay.ts';
import { api } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { QrSymbol } from '../orders/khqr/KhqrCard.tsx';

const STATUS_KEY = ['display', 'pairing'] as const;

/**
 * The till's "customer display": a window of its own on this computer (dragged to the second
 * screen), or a tablet paired by a code that the tablet types at /display or scans here. While the
 * code waits, the dialog asks every few seconds whether the tablet came.
 */
export function DisplayButton() {
  const { t, locale } = useCtx();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState<{ code: string; expires_at: string } | null>(null);
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: async ({ signal }) =>
      (await api('display/pairings/current', { signal, schema: displayPairingStatus })).data,
    refetchInterval: open && code ? 3000 : false,
  });
  const paired = status.data?.paired ?? false;
  // the till sends to the tablet while one is paired (after a reload too)
  useEffect(() => tabletPaired(paired), [paired]);

  const start = useMutation({
    mutationFn: async () => (await api('display/pairings', { method: 'POST', schema: displayPairingResponse })).data,
    onSuccess: (made) => {
      setCode(made);
      void status.refetch();
    },
  });
  const end = useMutation({
    mutationFn: () => api('display/pairings/current', { method: 'DELETE' }),
    onSuccess: () => {
      setCode(null);
      void status.refetch();
    },
  });
  const shownCode = paired ? null : code;
  const address = `${window.location.origin}${localePath('/display', locale)}`;

  return (
    <>
      <Button icon={<DesktopOutlined />} onClick={() => setOpen(true)} data-testid="open-display">
        {t('pos.openDisplay')}
        {paired && (
          <CheckCircleFilled style={{ color: 'var(--ant-color-success)' }} aria-label={t('pos.displayPaired')} />
        )}
      </Button>
      <Modal
        open={open}
        title={t('pos.openDisplay')}
        onCancel={() => setOpen(false)}
        footer={null}
        width={480}
        destroyOnHidden
      >
        <Flex vertical gap={12} data-testid="display-dialog">
          <Typography.Text type="secondary">{t('pos.openDisplayHelp')}</Typography.Text>
          <Button
            icon={<DesktopOutlined />}
            onClick={() => {
              openDisplay(locale);
              setOpen(false);
            }}
            data-testid="open-display-window"
          >
            {t('pos.displayWindow')}
          </Button>
          <Divider style={{ margin: '4px 0' }} />
          <Flex align="center" gap={8} wrap>
            <TabletOutlined />
            <Typography.Text strong>{t('pos.displayTablet')}</Typography.Text>
            {paired && (
              <Tag color="success" data-testid="display-paired">
                {t('pos.displayPaired')}
              </Tag>
            )}
          </Flex>
          {shownCode && (
            <Flex vertical align="center" gap={8} data-testid="display-code-card">
              <Typography.Text>{t('pos.displayCodeHelp', { address })}</Typography.Text>
              <Typography.Text
                strong
                copyable={{ text: shownCode.code }}
                style={{ fontSize: 36, letterSpacing: 6, fontFamily: 'monospace' }}
                data-testid="display-code"
              >
                {shownCode.code}
              </Typography.Text>
              <QrSymbol
                payload={`${address}?code=${shownCode.code}`}
                size={180}
                label={t('pos.displayCodeQr')}
                testId="display-code-qr"
              />
              <Typography.Text type="secondary">
                {t('pos.displayCodeUntil', { time: formatTime(shownCode.expires_at) })}
              </Typography.Text>
            </Flex>
          )}
          {(start.error || end.error) && (
            <Alert type="error" showIcon title={failureMessage(start.error ?? end.error, locale)} />
          )}
          <Flex gap={8} justify="flex-end" wrap>
            {paired && (
              <Button
                danger
                icon={<DisconnectOutlined />}
                loading={end.isPending}
                onClick={() => end.mutate()}
                data-testid="display-unpair"
              >
                {t('pos.displayUnpair')}
              </Button>
            )}
            <Button
              type={paired ? 'default' : 'primary'}
              icon={<LinkOutlined />}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="display-pair"
            >
              {shownCode ? t('pos.displayNewCode') : t('pos.displayPair')}
            </Button>
          </Flex>
        </Flex>
      </Modal>
    </>
  );
}
