import { SafetyCertificateOutlined } from '@ant-design/icons';
import { type Ability, type ApprovalInput, written } from '@depot/contracts';
import { Button, Flex, Popconfirm, Space, Tooltip } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import type { z } from 'zod';
import { ApiError, api, newIdempotencyKey, outcomeUnknown } from '../lib/http.ts';
import { ApprovalDialog, needsApproval } from './ApprovalDialog.tsx';
import { ActionProblem, RecordDrawer } from './detail.tsx';
import { failureMessage, useRefreshAll, useWritten } from './queries.ts';
import type { Row } from './resource.ts';
import { useCtx } from './useCtx.ts';

/** A document as the server sends it: its id, its number and what the user may do now. */
export type DocumentRecord = Row & { number: string; abilities: Record<string, Ability> };

/**
 * One action of a document, as its page declares it. The button shows when the record's
 * `abilities[ability ?? key]` is `true` (or `'approval'`: labelled as needing a manager, and the
 * write goes through the ApprovalDialog) and `when` holds; `ability: null` is an action of the
 * page's own (a print), shown whenever `when` holds.
 *
 * What a click does, one of:
 * - a write (the default): `POST {api}/{id}/{path ?? key}` with `body(record)`, behind the
 *   `confirm` help when there is one, with an Idempotency-Key per attempt;
 * - `open`: the page's own dialog or screen (a payment, a return, an edit);
 * - `render`: the page draws the control itself (several steps of a delivery), given the write.
 */
export interface DocumentAction<R extends DocumentRecord> {
  label: string;
  icon?: ReactNode;
  primary?: boolean;
  danger?: boolean;
  /** The ability that decides the button; the action's key by default, null for none. */
  ability?: string | null;
  when?: (record: R) => boolean;
  /** Asked before the write: what happens (the stock goes back). */
  confirm?: (record: R) => ReactNode;
  /** The confirmation's buttons, where "Cancel" would be ambiguous ("Keep the order"). */
  okText?: string;
  keepText?: string;
  path?: string;
  body?: (record: R) => Record<string, unknown>;
  open?: (record: R) => void;
  render?: (record: R, write: (body: Record<string, unknown>) => Promise<void>, busy: boolean) => ReactNode;
}

export type DocumentActions<R extends DocumentRecord> = Record<string, DocumentAction<R>>;

/** Whether the record's abilities show an action (true, or 'approval' at the till). */
export function shown(abilities: Record<string, Ability>, ability: string | null | undefined): Ability {
  if (ability === null) return true;
  return ability === undefined ? false : (abilities[ability] ?? false);
}

/**
 * The writes of a document's buttons: keyed (one Idempotency-Key per attempt, kept while the
 * outcome is unknown so a retry after a lost answer does not act twice, a new one once the server
 * answered), done → the server's message and every list and record read again; refused → the
 * reason in `problem` (a 409 reads the record again: it moved on meanwhile); a 403
 * `approval_required` asks for a manager's approval.
 */
export function useDocumentWrites<R extends DocumentRecord>(api_: string, record: R, row: z.ZodType<R>) {
  const { locale, t } = useCtx();
  const done = useWritten();
  const refresh = useRefreshAll();
  const keys = useRef(new Map<string, string>());
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const answer = written(row);

  /** Sends one write; throws what the server refused (the approval dialog shows it), after bookkeeping. */
  const send = async (action: string, path: string, body: Record<string, unknown>, approval?: ApprovalInput) => {
    const key = keys.current.get(action) ?? newIdempotencyKey();
    keys.current.set(action, key);
    setBusy(action);
    try {
      const result = await api(`${api_}/${record.id}/${path}`, {
        method: 'POST',
        body: approval ? { ...body, approval } : body,
        schema: answer,
        idempotencyKey: key,
      });
      keys.current.delete(action);
      await done(result);
    } catch (error) {
      if (!outcomeUnknown(error)) keys.current.delete(action);
      if (error instanceof ApiError && error.status === 409) void refresh();
      throw error;
    } finally {
      setBusy(null);
    }
  };

  return {
    send,
    busy,
    problem,
    setProblem,
    /** A write without approval: its failure shown above the document. */
    async run(action: string, path: string, body: Record<string, unknown>): Promise<'done' | 'approval' | 'failed'> {
      setProblem(null);
      // a void, a cancel, a receipt of goods: the server's to decide, nothing is kept offline for them
      if (typeof navigator !== 'undefined' && navigator.onLine === false) {
        setProblem(t('offline.needsConnection'));
        return 'failed';
      }
      try {
        await send(action, path, body);
        return 'done';
      } catch (error) {
        if (needsApproval(error)) return 'approval';
        setProblem(failureMessage(error, locale));
        return 'failed';
      }
    },
  };
}

/**
 * A document's buttons from its `abilities` and the page's table of actions, in the table's order:
 * confirmations, keyed writes, the manager's approval where an ability says 'approval', the last
 * failure above them. `children` is the document's body.
 */
export function DocumentView<R extends DocumentRecord>({
  api: path,
  record,
  row,
  actions,
  testId,
  children,
}: {
  api: string;
  record: R;
  row: z.ZodType<R>;
  actions: DocumentActions<R>;
  /** `{testId}-details`, `{testId}-actions`, `{testId}-error`, `{testId}-{action}` */
  testId: string;
  children: ReactNode;
}) {
  const { t } = useCtx();
  const writes = useDocumentWrites(path, record, row);
  const [approving, setApproving] = useState<string | null>(null);

  const writeOf = (key: string, action: DocumentAction<R>) => async (body: Record<string, unknown>) => {
    const outcome = await writes.run(key, action.path ?? key, body);
    if (outcome === 'approval') setApproving(key);
  };

  const buttons: ReactNode[] = [];
  for (const [key, action] of Object.entries(actions)) {
    const ability = shown(record.abilities, action.ability === undefined ? key : action.ability);
    if (ability === false || (action.when && !action.when(record))) continue;
    const write = writeOf(key, action);
    if (action.render) {
      buttons.push(<span key={key}>{action.render(record, write, writes.busy === key)}</span>);
      continue;
    }
    const manager = ability === 'approval';
    const label = manager ? t('approval.button', { action: action.label }) : action.label;
    const click = action.open
      ? () => action.open?.(record)
      : manager
        ? () => {
            // the manager's approval and the write it goes with are the server's: none offline
            if (typeof navigator !== 'undefined' && navigator.onLine === false) {
              writes.setProblem(t('offline.needsConnection'));
              return;
            }
            writes.setProblem(null);
            setApproving(key);
          }
        : action.confirm
          ? undefined
          : () => void write(action.body?.(record) ?? {});
    const button = (
      <Button
        type={action.primary ? 'primary' : 'default'}
        danger={action.danger}
        icon={manager ? <SafetyCertificateOutlined /> : action.icon}
        loading={writes.busy === key}
        data-testid={`${testId}-${key}`}
        onClick={click}
      >
        {label}
      </Button>
    );
    if (action.confirm && !action.open && !manager) {
      buttons.push(
        <Popconfirm
          key={key}
          title={action.label}
          description={
            <div style={{ maxWidth: 320 }} data-testid={`${testId}-${key}-help`}>
              {action.confirm(record)}
            </div>
          }
          okText={action.okText ?? action.label}
          okButtonProps={{ danger: action.danger }}
          cancelText={action.keepText ?? t('kit.cancel')}
          onConfirm={() => write(action.body?.(record) ?? {})}
        >
          {button}
        </Popconfirm>,
      );
    } else {
      buttons.push(
        manager ? (
          <Tooltip key={key} title={t('approval.help')}>
            {button}
          </Tooltip>
        ) : (
          <span key={key}>{button}</span>
        ),
      );
    }
  }

  const pending = approving ? actions[approving] : null;
  return (
    <Flex vertical gap={20} data-testid={`${testId}-details`}>
      <ActionProblem problem={writes.problem} onClose={() => writes.setProblem(null)} testId={`${testId}-error`} />
      {buttons.length > 0 && (
        <Space wrap data-testid={`${testId}-actions`}>
          {buttons}
        </Space>
      )}
      {children}
      {approving && pending && (
        <ApprovalDialog
          title={pending.label}
          help={pending.confirm?.(record)}
          okText={pending.label}
          danger={pending.danger}
          onClose={() => setApproving(null)}
          onApprove={async (approval) => {
            await writes.send(approving, pending.path ?? approving, pending.body?.(record) ?? {}, approval);
            setApproving(null);
          }}
        />
      )}
    </Flex>
  );
}

/**
 * A document beside its list (`?view=id`): the drawer titled by its number with its status tag; its
 * body is the page's component, which shows its buttons and details through DocumentView.
 */
export function DocumentDrawer<R extends DocumentRecord>({
  api: path,
  row,
  width,
  title,
  loadingTitle,
  status,
  children,
}: {
  api: string;
  row: z.ZodType<R>;
  width: number;
  title: (number: string) => string;
  loadingTitle: string;
  status: (record: R) => ReactNode;
  children: (record: R) => ReactNode;
}) {
  return (
    <RecordDrawer
      api={path}
      row={row}
      width={width}
      title={(number) => title(number)}
      status={status}
      loadingTitle={loadingTitle}
    >
      {children}
    </RecordDrawer>
  );
}
