import { ApiOutlined, DisconnectOutlined, LinkOutlined } from '@ant-design/icons';
import { type EInvoiceConnection, einvoiceConnection, einvoiceConnectStart, single, written } from '@depot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Flex, Popconfirm, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Loaded } from '../../kit/listState.tsx';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { resourceKey } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';
import { problemOf } from './common.ts';

/**
 * `/settings/caminvoice` (administrators): the business's connection to CamInvoice, the GDT's
 * e-invoicing platform. Connect sends the administrator to CamInvoice to approve Depot; CamInvoice
 * sends them back here with a token, which this page hands to the server (the server checks the
 * state it gave). Shows connected, revoked (connect again) or not connected; disconnect; and the
 * webhook address to register with CamInvoice.
 */

const key = resourceKey('caminvoice', 'connection');
const STATUS_COLOURS: Record<EInvoiceConnection['status'], string> = {
  connected: 'success',
  revoked: 'error',
  disconnected: 'default',
};

export function CamInvoicePage() {
  const { t, locale } = useCtx();
  const client = useQueryClient();
  const [result, setResult] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const connection = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api('caminvoice/connection', { signal, schema: single(einvoiceConnection) })).data,
  });

  // back from CamInvoice: the whole address goes to the server once, then leaves the address bar
  const handled = useRef(false);
  const [finishing, setFinishing] = useState(false);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (handled.current || !(params.has('authToken') || params.has('error') || params.has('state'))) return;
    handled.current = true;
    const callback = window.location.href;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    setFinishing(true);
    api('caminvoice/connection', {
      method: 'POST',
      body: { callback_url: callback },
      schema: written(einvoiceConnection),
    })
      .then((answer) => {
        client.setQueryData(key, answer.data);
        setResult({ type: 'success', text: answer.message });
      })
      .catch((error) => setResult({ type: 'error', text: problemOf(error, locale) }))
      .finally(() => setFinishing(false));
  }, [client, locale]);

  const connect = useMutation({
    mutationFn: () =>
      api('caminvoice/connection/start', {
        method: 'POST',
        body: { redirect_url: window.location.origin + window.location.pathname },
        schema: single(einvoiceConnectStart),
      }),
    onMutate: () => setResult(null),
    onSuccess: (answer) => window.location.assign(answer.data.authorize_url),
    onError: (error) => setResult({ type: 'error', text: problemOf(error, locale) }),
  });
  const disconnect = useMutation({
    mutationFn: () => api('caminvoice/connection', { method: 'DELETE', schema: written(einvoiceConnection) }),
    onMutate: () => setResult(null),
    onSuccess: (answer) => {
      client.setQueryData(key, answer.data);
      setResult({ type: 'success', text: answer.message });
    },
    onError: (error) => setResult({ type: 'error', text: problemOf(error, locale) }),
  });

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <PageTitle>
            <ApiOutlined /> {t('einvoice.title')}
          </PageTitle>
        }
      >
        <Typography.Paragraph style={{ marginBottom: 0 }}>{t('einvoice.intro')}</Typography.Paragraph>
      </Card>
      <Card title={t('einvoice.connection')} data-testid="caminvoice-connection">
        <Loaded query={connection} waiting={finishing}>
          {(data) => (
            <Flex vertical gap={16}>
              {result && <Alert type={result.type} showIcon title={result.text} data-testid="caminvoice-result" />}
              {!data.configured && <Alert type="warning" showIcon title={t('einvoice.notConfigured')} />}
              {data.status === 'revoked' && (
                <Alert type="error" showIcon title={t('einvoice.revoked')} description={data.problem ?? undefined} />
              )}
              <Descriptions
                size="small"
                column={{ xs: 1, md: 2 }}
                items={[
                  {
                    key: 'status',
                    label: t('einvoice.state'),
                    children: (
                      <Tag color={STATUS_COLOURS[data.status]} data-testid="caminvoice-status">
                        {t(`einvoice.connectionStatus.${data.status}`)}
                      </Tag>
                    ),
                  },
                  {
                    key: 'environment',
                    label: t('einvoice.environment'),
                    children: t(`einvoice.environments.${data.environment}`),
                  },
                  {
                    key: 'name',
                    label: t('einvoice.business'),
                    children: data.company_name_kh ?? data.company_name_en ?? '—',
                  },
                  { key: 'tin', label: t('einvoice.tin'), children: data.tin ?? '—' },
                  { key: 'endpoint', label: t('einvoice.endpoint'), children: data.endpoint_id ?? '—' },
                  {
                    key: 'since',
                    label: t('einvoice.since'),
                    children: data.connected_at ? formatDateTime(data.connected_at, locale) : '—',
                  },
                ]}
              />
              {data.webhook_url && (
                <div>
                  <Typography.Text strong>{t('einvoice.webhook')}</Typography.Text>
                  <Typography.Paragraph
                    copyable
                    code
                    style={{ wordBreak: 'break-all' }}
                    data-testid="caminvoice-webhook"
                  >
                    {window.location.origin + data.webhook_url}
                  </Typography.Paragraph>
                  <Typography.Text type="secondary">{t('einvoice.webhookHelp')}</Typography.Text>
                </div>
              )}
              <Flex gap={8} wrap>
                {data.status !== 'connected' && (
                  <Button
                    type="primary"
                    icon={<LinkOutlined />}
                    disabled={!data.configured}
                    loading={connect.isPending}
                    onClick={() => connect.mutate()}
                    data-testid="caminvoice-connect"
                  >
                    {data.status === 'revoked' ? t('einvoice.reconnect') : t('einvoice.connect')}
                  </Button>
                )}
                {data.status !== 'disconnected' && (
                  <Popconfirm
                    title={t('einvoice.disconnectTitle')}
                    description={<div style={{ maxWidth: 420 }}>{t('einvoice.disconnectText')}</div>}
                    okText={t('einvoice.disconnect')}
                    okButtonProps={{ danger: true }}
                    cancelText={t('kit.cancel')}
                    onConfirm={() => disconnect.mutate()}
                  >
                    <Button
                      danger
                      icon={<DisconnectOutlined />}
                      loading={disconnect.isPending}
                      data-testid="caminvoice-disconnect"
                    >
                      {t('einvoice.disconnect')}
                    </Button>
                  </Popconfirm>
                )}
              </Flex>
            </Flex>
          )}
        </Loaded>
      </Card>
    </Flex>
  );
}
