import { SafetyCertificateOutlined } from '@ant-design/icons';
import { type ApprovalInput, approvalInput } from '@depot/contracts';
import { Alert, Flex, Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { ApiError } from '../lib/http.ts';
import { failureMessage } from './queries.ts';
import { useCtx } from './useCtx.ts';

/**
 * The failure of a write sent with a manager's approval, in the dialog's words: the server's 422 on
 * `approval` (wrong name or password, a user who may not approve this here), any other 422's
 * messages, a throttled sign-in (429) or anything else in the server's words.
 */
export function approvalProblem(error: unknown, locale: 'en' | 'kh'): string {
  if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
    const errors = error.body.errors;
    return (errors.approval ?? Object.values(errors).flat()).join(' ');
  }
  return failureMessage(error, locale);
}

/** Whether the server refused a write for want of a manager's approval (403 `approval_required`). */
export function needsApproval(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.body?.code === 'approval_required';
}

/**
 * A manager's approval at the till: the manager types their own username and password on the
 * cashier's screen, and `onApprove` sends the write with `approval: {name, password}` (contracts'
 * approvalInput). A refusal stays in the dialog (a wrong password is typed again); done, the caller
 * closes it. Used wherever a record's ability says `'approval'` (the document block's buttons, the
 * return dialog).
 */
export function ApprovalDialog({
  title,
  help,
  okText,
  danger,
  onApprove,
  onClose,
}: {
  /** What is being approved ("Cancel order"). */
  title: string;
  /** What happens once approved (the stock goes back, the payment is refunded). */
  help?: ReactNode;
  okText?: string;
  danger?: boolean;
  onApprove: (approval: ApprovalInput) => Promise<void>;
  onClose: () => void;
}) {
  const { t, locale } = useCtx();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const approve = async () => {
    const parsed = approvalInput.safeParse({ name, password });
    if (!parsed.success) {
      setProblem(t('approval.missing'));
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      await onApprove(parsed.data);
    } catch (error) {
      setProblem(approvalProblem(error, locale));
      setPassword('');
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal
      open
      width={440}
      title={
        <Flex gap={8} align="center">
          <SafetyCertificateOutlined />
          <span>{t('approval.title')}</span>
        </Flex>
      }
      okText={okText ?? t('approval.approve')}
      okButtonProps={{ danger, 'data-testid': 'approval-ok' }}
      cancelText={t('kit.cancel')}
      onOk={() => void approve()}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Form layout="vertical" component="div" data-testid="approval-dialog">
        <Typography.Paragraph strong style={{ marginBottom: 4 }}>
          {title}
        </Typography.Paragraph>
        {help && (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {help}
          </Typography.Paragraph>
        )}
        <Typography.Paragraph type="secondary">{t('approval.help')}</Typography.Paragraph>
        {problem && (
          <Alert type="error" showIcon title={problem} data-testid="approval-problem" style={{ marginBottom: 16 }} />
        )}
        <Form.Item label={t('approval.name')} htmlFor="approval-name" required>
          <Input
            id="approval-name"
            autoComplete="off"
            autoFocus
            value={name}
            data-testid="approval-name"
            onChange={(event) => setName(event.target.value)}
            onPressEnter={() => void approve()}
          />
        </Form.Item>
        <Form.Item label={t('approval.password')} htmlFor="approval-password" required>
          <Input.Password
            id="approval-password"
            autoComplete="off"
            value={password}
            data-testid="approval-password"
            onChange={(event) => setPassword(event.target.value)}
            onPressEnter={() => void approve()}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
