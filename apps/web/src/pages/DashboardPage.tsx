import { UserOutlined } from '@ant-design/icons';
import { type AdminDashboard, dashboardResponse, type Locale } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Avatar,
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  Result,
  Row,
  Skeleton,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { formatDate, formatDateTime } from '../lib/dates.ts';
import { api } from '../lib/http.ts';
import { localeFromPath } from '../lib/locale.ts';
import { auditActionLabel } from './admin/AuditPage.tsx';
import { Chart } from './reports/Chart.tsx';
import { FigureCard, FigureGrid, label, SectionTable } from './reports/figures.tsx';

const dashboardQuery = {
  queryKey: ['dashboard'],
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await api('dashboard', { signal, schema: dashboardResponse })).data,
  refetchInterval: 60_000,
};

/**
 * A manager's morning (today against yesterday, this week against the last, sales by hour,
 * payments and cash per currency, top products and categories, what is waiting: every tile opens
 * the report or list behind it) or a cashier's own sales of today. The server decides which.
 */
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
  const hours = Array.from({ length: 24 }, (_, h) => h).filter(
    (h) => (h >= 6 && h <= 21) || data.by_hour.some((r) => r.hour === h),
  );

  return (
    <Flex vertical gap={20}>
      <Card>
        <Flex gap={20} align="flex-start" wrap>
          <Avatar size={56} icon={<UserOutlined />} />
          <div style={{ flex: 1, minWidth: 240 }}>
            <Typography.Title level={2} style={{ marginTop: 0, marginBottom: 4, fontSize: 20 }}>
              {t('dashboard.welcome', { name: displayName })}
            </Typography.Title>
            <Descriptions column={{ xs: 1, md: 3 }} size="small">
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
                        <Tag key={role.name} color="green">
                          {locale === 'kh' ? role.label_kh : role.label_en}
                        </Tag>
                      ))}
                </span>
              </Descriptions.Item>
            </Descriptions>
          </div>
          <Typography.Text type="secondary">
            {t('dashboard.today')}: {formatDate(data.today, locale)}
          </Typography.Text>
        </Flex>
      </Card>

      {data.kind === 'cashier' && (
        <Alert
          type={data.shift?.overnight ? 'warning' : 'info'}
          showIcon
          data-testid="dashboard-shift"
          title={
            data.shift
              ? t('dashboard.shiftNote', {
                  number: data.shift.number,
                  till: data.shift.till,
                  date: formatDate(data.shift.opened_at, locale),
                })
              : t('dashboard.ownSalesNote')
          }
          description={data.shift?.overnight ? t('shifts.overnightHelp') : undefined}
        />
      )}

      <div data-testid="dashboard-today">
        <Typography.Title level={3} style={{ fontSize: 16 }}>
          {data.kind === 'cashier'
            ? data.shift
              ? t('dashboard.shiftSales')
              : t('dashboard.ownSales')
            : t('dashboard.todayVsYesterday')}
        </Typography.Title>
        <FigureGrid figures={data.today_figures} locale={locale} />
      </div>

      {data.week_figures && (
        <div data-testid="dashboard-week">
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('dashboard.weekVsLast')}
          </Typography.Title>
          <FigureGrid figures={data.week_figures} locale={locale} />
        </div>
      )}

      {data.alerts.length > 0 && (
        <div data-testid="dashboard-alerts">
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('dashboard.waiting')}
          </Typography.Title>
          <Row gutter={[12, 12]}>
            {data.alerts.map((a) => (
              <Col key={a.key} xs={12} md={8} xl={{ flex: '20%' }}>
                <FigureCard figure={a} locale={locale} testId={`alert-${a.key}`} />
              </Col>
            ))}
          </Row>
        </div>
      )}

      {data.admin && <AdminPart admin={data.admin} locale={locale} />}

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('dashboard.byHour')}>
            <Chart
              testId="dashboard-hours"
              locale={locale}
              height={260}
              categories={hours.map((h) => `${String(h).padStart(2, '0')}:00`)}
              series={[
                {
                  name: label('report.field.net_cents', locale),
                  kind: 'money',
                  data: hours.map((h) => data.by_hour.find((r) => r.hour === h)?.net_cents ?? 0),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Flex vertical gap={16}>
            {data.sections
              .filter((s) => s.key === 'by_payment' || s.key === 'cash')
              .map((s) => (
                <SectionTable key={s.key} section={s} locale={locale} />
              ))}
          </Flex>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        {data.sections
          .filter((s) => s.key !== 'by_payment' && s.key !== 'cash')
          .map((s) => (
            <Col key={s.key} xs={24} xl={12}>
              <SectionTable section={s} locale={locale} />
            </Col>
          ))}
      </Row>
    </Flex>
  );
}

/** An administrator's part: users, sign-ins, live screens (each opening its list), the latest audit entries. */
function AdminPart({ admin, locale }: { admin: AdminDashboard; locale: Locale }) {
  const { t } = useTranslation();
  return (
    <div data-testid="dashboard-admin">
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('dashboard.system')}
      </Typography.Title>
      <Row gutter={[12, 12]}>
        {admin.figures.map((f) => (
          <Col key={f.key} xs={12} md={8} xl={4}>
            <FigureCard figure={f} locale={locale} testId={`admin-${f.key}`} />
          </Col>
        ))}
      </Row>
      <Card
        size="small"
        style={{ marginTop: 12 }}
        title={t('dashboard.latestAudit')}
        extra={
          <Typography.Text type="secondary" data-testid="admin-database">
            {t('dashboard.database', {
              kind: admin.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
              migration: admin.database.migration ?? '—',
            })}
          </Typography.Text>
        }
      >
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={admin.recent}
          data-testid="admin-recent"
          columns={[
            {
              key: 'at',
              title: t('audit.when'),
              render: (_, e) => formatDateTime(e.created_at, locale),
            },
            { key: 'who', title: t('audit.who'), render: (_, e) => e.user_name ?? '—' },
            { key: 'what', title: t('audit.what'), render: (_, e) => auditActionLabel(t, e.action) },
          ]}
        />
      </Card>
    </div>
  );
}
