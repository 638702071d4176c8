import {
  CheckOutlined,
  DeleteOutlined,
  EyeInvisibleOutlined,
  InboxOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import { messageResponse, type Notification, type NotificationStatus, notification, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Flex,
  Popconfirm,
  Segmented,
  Table,
  type TableColumnsType,
  Tabs,
  Tooltip,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { LoadFailed, pagination, tableChange, useListState, useStayInRange } from '../../kit/listState.tsx';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { failureMessage, usePage, useRefreshAll, useWritten } from '../../kit/queries.ts';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { notificationText } from './text.ts';

const STATUSES: NotificationStatus[] = ['unread', 'read', 'all'];
type Action = 'read' | 'unread' | 'archive' | 'unarchive';
const markAnswer = written(notification);
const readAllAnswer = written(z.object({ updated: z.number().int() }));

/**
 * `/notifications`: the user's inbox and archive, unread / read / all, newest first. A notification
 * opens its record (and counts as read); each can be marked read or unread, archived or brought
 * back, deleted; all can be marked read at once. The bell's count follows every change.
 */
export function NotificationsPage() {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const { state, query, update } = useListState(['status', 'archived']);
  const archived = state.filters.archived === '1';
  const status = (STATUSES as string[]).includes(state.filters.status ?? '')
    ? (state.filters.status as NotificationStatus)
    : 'all';
  const list = usePage('notifications', notification, query);
  useStayInRange(state, list.data?.meta.last_page, update);
  const canUpdate = useCan('notifications.update');
  const canDelete = useCan('notifications.delete');
  const written = useWritten();
  const refresh = useRefreshAll();
  const { message } = App.useApp();
  const failed = (error: unknown) => void message.error(failureMessage(error, locale));

  const mark = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Action; quiet?: boolean }) =>
      api(`notifications/${id}/${action}`, { method: 'POST', schema: markAnswer }),
    // opening a notification reads it without a word; the buttons say what they did
    onSuccess: (answer, { quiet }) => (quiet ? refresh() : written(answer)),
    onError: failed,
  });
  const readAll = useMutation({
    mutationFn: () => api('notifications/read-all', { method: 'POST', schema: readAllAnswer }),
    onSuccess: written,
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`notifications/${id}`, { method: 'DELETE', schema: messageResponse }),
    onSuccess: written,
    onError: failed,
  });

  const open = (item: Notification) => {
    if (!item.read_at && canUpdate) mark.mutate({ id: item.id, action: 'read', quiet: true });
    const link = typeof item.data.link === 'string' ? item.data.link : null;
    if (link?.startsWith('/')) void navigate(localePath(link, locale));
  };

  const columns: TableColumnsType<Notification> = [
    {
      key: 'notification',
      title: t('notifications.column'),
      ...wrap(520),
      render: (_, item) => {
        const { title, text } = notificationText(item, t, locale);
        const unread = !item.read_at;
        return (
          <Flex gap={10} align="flex-start">
            <Badge status={unread ? 'processing' : 'default'} style={{ marginTop: 4 }} />
            <Flex vertical gap={2}>
              <Typography.Link
                strong={unread}
                onClick={() => open(item)}
                data-testid={`notification-${item.id}`}
                aria-label={`${title}${unread ? ` (${t('notifications.unread')})` : ''}`}
              >
                {title}
              </Typography.Link>
              {text && <Typography.Text type={unread ? undefined : 'secondary'}>{text}</Typography.Text>}
            </Flex>
          </Flex>
        );
      },
    },
    {
      key: 'received',
      title: t('notifications.received'),
      render: (_, item) => (
        <Typography.Text type="secondary">{formatDateTime(item.created_at, locale)}</Typography.Text>
      ),
    },
    {
      key: 'actions',
      title: t('kit.actions'),
      align: 'end',
      render: (_, item) => (
        <Flex gap={4} justify="flex-end">
          {canUpdate && (
            <IconAction
              title={item.read_at ? t('notifications.markUnread') : t('notifications.markRead')}
              testId={`${item.read_at ? 'unread' : 'read'}-${item.id}`}
              icon={item.read_at ? <EyeInvisibleOutlined /> : <CheckOutlined />}
              onClick={() => mark.mutate({ id: item.id, action: item.read_at ? 'unread' : 'read' })}
            />
          )}
          {canUpdate && (
            <IconAction
              title={item.archived_at ? t('notifications.unarchive') : t('notifications.archive')}
              testId={`${item.archived_at ? 'unarchive' : 'archive'}-${item.id}`}
              icon={item.archived_at ? <RollbackOutlined /> : <InboxOutlined />}
              onClick={() => mark.mutate({ id: item.id, action: item.archived_at ? 'unarchive' : 'archive' })}
            />
          )}
          {canDelete && (
            <Popconfirm
              title={t('notifications.deleteConfirm')}
              okText={t('kit.delete')}
              cancelText={t('kit.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync(item.id)}
            >
              <Button
                type="text"
                danger
                aria-label={t('kit.delete')}
                data-testid={`delete-${item.id}`}
                icon={<DeleteOutlined />}
              />
            </Popconfirm>
          )}
        </Flex>
      ),
    },
  ];

  if (list.isError && !list.data) {
    return <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />;
  }
  const empty = archived ? 'archive' : status;
  return (
    <Card
      title={<PageTitle>{t('notifications.title')}</PageTitle>}
      extra={
        canUpdate &&
        !archived && (
          <Button
            icon={<CheckOutlined />}
            loading={readAll.isPending}
            onClick={() => readAll.mutate()}
            data-testid="read-all"
          >
            {t('notifications.markAllRead')}
          </Button>
        )
      }
    >
      <Tabs
        activeKey={archived ? 'archive' : 'inbox'}
        onChange={(key) => update({ 'filter[archived]': key === 'archive' ? '1' : undefined })}
        items={[
          { key: 'inbox', label: <span data-testid="tab-inbox">{t('notifications.inbox')}</span> },
          { key: 'archive', label: <span data-testid="tab-archive">{t('notifications.archived')}</span> },
        ]}
      />
      <Flex style={{ marginBottom: 16 }}>
        <Segmented<NotificationStatus>
          value={status}
          onChange={(next) => update({ 'filter[status]': next === 'all' ? undefined : next })}
          options={STATUSES.map((value) => ({
            value,
            label: <span data-testid={`status-${value}`}>{t(`notifications.status.${value}`)}</span>,
          }))}
        />
      </Flex>
      <div data-testid="notifications-table">
        <Table<Notification>
          rowKey="id"
          size="middle"
          showHeader={false}
          dataSource={list.data?.data}
          loading={list.isFetching}
          {...fitTable}
          columns={columns}
          locale={{ emptyText: t(`notifications.empty.${empty}`) }}
          pagination={pagination(t, state, list.data?.meta)}
          onChange={tableChange(state, update)}
        />
      </div>
    </Card>
  );
}

/** A row's icon button, named for screen readers and explained on hover. */
function IconAction({
  title,
  testId,
  icon,
  onClick,
}: {
  title: string;
  testId: string;
  icon: ReactNode;
  onClick: () => void;
}) {
  return (
    <Tooltip title={title}>
      <Button type="text" aria-label={title} data-testid={testId} icon={icon} onClick={onClick} />
    </Tooltip>
  );
}
