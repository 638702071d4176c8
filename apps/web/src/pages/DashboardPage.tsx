import {
  ApartmentOutlined,
  CheckCircleOutlined,
  KeyOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { type Dashboard, dashboardResponse } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Avatar,
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  Result,
  Row,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { formatDateTime } from '../lib/dates.ts';
import { api } from '../lib/http.ts';
import { localeFromPath } from '../lib/locale.ts';

const dashboardQuery = {
  queryKey: ['dashboard'],
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await api('dashboard', { signal, schema: dashboardResponse })).data,
};

type SignIn = NonNullable<Dashboard['recent_sign_ins']>[number];

function Counts({ counts }: { counts: Dashboard['counts'] }) {
  const { t } = useTranslation();
  const cards: { key: keyof Dashboard['counts']; label: string; icon: ReactNode }[] = [
    { key: 'users', label: t('dashboard.counts.users'), icon: <TeamOutlined /> },
    { key: 'active_users', label: t('dashboard.counts.activeUsers'), icon: <CheckCircleOutlined /> },
    { key: 'roles', label: t('dashboard.counts.roles'), icon: <ApartmentOutlined /> },
    { key: 'stores', label: t('dashboard.counts.stores'), icon: <ShopOutlined /> },
    { key: 'permissions', label: t('dashboard.counts.permissions'), icon: <KeyOutlined /> },
  ];
  return (
    <div data-testid="dashboard-counts">
      <Typography.Title level={5}>{t('dashboard.counts.title')}</Typography.Title>
      <Row gutter={[16, 16]}>
        {cards.map((card) => (
          <Col key={card.key} xs={12} md={8} xl={{ flex: '20%' }}>
            <Card>
              <Statistic title={card.label} value={counts[card.key]} prefix={card.icon} />
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}

function SignIns({ rows }: { rows: SignIn[] }) {
  const { t } = useTranslation();
  const locale = localeFromPath(useLocation().pathname);
  return (
    <Card title={t('dashboard.signIns.title')}>
      <div data-testid="dashboard-sign-ins">
        <Table<SignIn>
          size="middle"
          pagination={false}
          rowKey={(row) => `${row.user_name}-${row.signed_in_at}`}
          dataSource={rows}
          locale={{ emptyText: t('dashboard.signIns.empty') }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('dashboard.signIns.user'), dataIndex: 'user_name' },
            {
              title: t('dashboard.signIns.time'),
              dataIndex: 'signed_in_at',
              render: (value: string) => formatDateTime(value, locale),
            },
            { title: t('dashboard.signIns.address'), dataIndex: 'ip', render: (value: string | null) => value ?? '—' },
          ]}
        />
      </div>
    </Card>
  );
}

export function DashboardPage() {
  const { t } = useTranslation();
  const locale = localeFromPath(useLocation().pathname);
  const query = useQuery(dashboardQuery);

  if (query.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Result
        status="error"
        title={t('errors.loadData')}
        extra={
          <Button type="primary" size="large" loading={query.isFetching} onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  const data = query.data;
  const displayName = data.user.full_name || data.user.name;

  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4 }}>
          {t('dashboard.welcome', { name: displayName })}
        </Typography.Title>
        <Typography.Text type="secondary">
          {t('dashboard.asOf', { time: formatDateTime(data.server_time, locale) })}
        </Typography.Text>
      </div>

      <Card>
        <Flex gap={20} align="flex-start" wrap>
          <Avatar size={64} icon={<UserOutlined />} />
          <Descriptions column={{ xs: 1, md: 2 }} style={{ flex: 1, minWidth: 240 }}>
            <Descriptions.Item label={t('dashboard.user')}>
              <span data-testid="dashboard-user">
                <Typography.Text strong>{displayName}</Typography.Text>
                {data.user.full_name && <Typography.Text type="secondary"> ({data.user.name})</Typography.Text>}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.store')}>
              <span data-testid="dashboard-store">
                {data.store ? `${data.store.name} (${data.store.code})` : t('dashboard.noStore')}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.roles')}>
              <span data-testid="dashboard-roles">
                {data.roles.length === 0
                  ? t('dashboard.noRoles')
                  : data.roles.map((role) => (
                      <Tag key={role.name} color="green" style={{ fontSize: 14, paddingBlock: 2 }}>
                        {locale === 'kh' ? role.label_kh : role.label_en}
                      </Tag>
                    ))}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.permissions')}>
              <span data-testid="dashboard-permissions">{data.permission_count}</span>
            </Descriptions.Item>
          </Descriptions>
        </Flex>
      </Card>

      <Counts counts={data.counts} />

      {data.recent_sign_ins && <SignIns rows={data.recent_sign_ins} />}
    </Flex>
  );
}
