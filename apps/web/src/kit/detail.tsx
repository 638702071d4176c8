import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Card, Drawer, Flex, Result, Skeleton, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../lib/http.ts';
import { LoadFailed } from './listState.tsx';
import { useRecord } from './queries.ts';
import type { Row } from './resource.ts';
import { useCtx } from './useCtx.ts';

/**
 * The record whose details are open beside a list (`?view=12`): in the address with the list's
 * page and filters, so a reload or a shared link opens the same drawer.
 */
export function useDetailParam(name = 'view') {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get(name)) || null;
  const set = (next: number | null) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next) changed.set(name, String(next));
        else changed.delete(name);
        return changed;
      },
      { replace: true },
    );
  return { id, open: (next: number) => set(next), close: () => set(null) };
}

/** A record's number in a list (or an icon, named by `label`) that opens its details. */
export function DetailLink({
  id,
  children,
  testId,
  label,
}: {
  id: number;
  children: ReactNode;
  testId?: string;
  label?: string;
}) {
  const { open } = useDetailParam();
  const button = (
    <Button
      type="link"
      size="small"
      style={{ paddingInline: label ? undefined : 0 }}
      onClick={() => open(id)}
      data-testid={testId}
      aria-label={label}
    >
      {children}
    </Button>
  );
  return label ? <Tooltip title={label}>{button}</Tooltip> : button;
}

/**
 * A record as it loads: a skeleton of `rows` lines (in a card with `card`), "Not found" for a 404,
 * the failure with Retry, then the record.
 */
export function Loaded<R>({
  record,
  rows = 8,
  card = false,
  children,
}: {
  record: UseQueryResult<R>;
  rows?: number;
  card?: boolean;
  children: (data: R) => ReactNode;
}) {
  const { t } = useCtx();
  if (record.data !== undefined) return children(record.data);
  if (record.isError) {
    if (record.error instanceof ApiError && record.error.status === 404) {
      return <Result status="404" title={t('kit.notFound')} />;
    }
    return <LoadFailed error={record.error} retry={record.refetch} retrying={record.isFetching} />;
  }
  const skeleton = <Skeleton active paragraph={{ rows }} />;
  return card ? <Card>{skeleton}</Card> : skeleton;
}

/** A drawer's width: `px` on a desk, the whole screen on a phone. */
export function drawerSize(px: number): string {
  return `min(${px}px, 100vw)`;
}

/**
 * The drawer of a document opened from its list (`?view=id`): loaded from `api`, titled by its
 * number, `width` wide on a desk and the whole screen on a phone.
 */
export function RecordDrawer<R extends Row & { number: string }>({
  api,
  row,
  width,
  title,
  loadingTitle,
  rows,
  status,
  children,
}: {
  api: string;
  row: z.ZodType<R>;
  width: number;
  title: (number: string) => string;
  loadingTitle: string;
  rows?: number;
  /** The record's status tag, beside its number in the title. */
  status?: (record: R) => ReactNode;
  children: (record: R) => ReactNode;
}) {
  const { id, close } = useDetailParam();
  const record = useRecord({ api, row }, id);
  return (
    <Drawer
      open={Boolean(id)}
      onClose={close}
      size={drawerSize(width)}
      title={
        record.data ? (
          <Flex gap={8} align="center" wrap>
            <span>{title(record.data.number)}</span>
            {status?.(record.data)}
          </Flex>
        ) : (
          loadingTitle
        )
      }
      destroyOnHidden
    >
      <Loaded record={record} rows={rows}>
        {children}
      </Loaded>
    </Drawer>
  );
}

/** The failure of a document's last action, above its details, until closed or the next action. */
export function ActionProblem({
  problem,
  onClose,
  testId,
}: {
  problem: string | null;
  onClose: () => void;
  testId: string;
}) {
  if (!problem) return null;
  return <Alert type="error" showIcon title={problem} closable={{ onClose }} data-testid={testId} />;
}
