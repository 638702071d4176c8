import { CloseOutlined, SendOutlined } from '@ant-design/icons';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, createQueryClient } from '../app/App.tsx';
import { i18n } from '../i18n.ts';
import { mockFetch, signedIn } from '../test/render.tsx';
import { type DocumentActions, DocumentView } from './document.tsx';

const ability = z.union([z.boolean(), z.literal('approval')]);
const row = z.object({
  id: z.number(),
  number: z.string(),
  status: z.string(),
  deleted_at: z.string().nullable(),
  abilities: z.object({ send: ability, cancel: ability, edit: ability }),
});
type Doc = z.infer<typeof row>;

const doc = (abilities: Doc['abilities']): Doc => ({
  id: 5,
  number: 'DOC-5',
  status: 'draft',
  deleted_at: null,
  abilities,
});

const actions: DocumentActions<Doc> = {
  edit: { label: 'Edit', open: () => {} },
  send: { label: 'Send', primary: true, icon: <SendOutlined />, confirm: () => 'The stock leaves.' },
  cancel: { label: 'Cancel document', danger: true, icon: <CloseOutlined />, body: () => ({ reason: null }) },
  print: { label: 'Print', ability: null, when: (record) => record.status !== 'draft' },
};

function show(record: Doc) {
  const router = createMemoryRouter(
    [
      {
        path: '/en/doc',
        element: (
          <AntApp>
            <DocumentView api="docs" record={record} row={row} actions={actions} testId="doc">
              <p>body</p>
            </DocumentView>
          </AntApp>
        ),
      },
    ],
    { initialEntries: ['/en/doc'] },
  );
  const queryClient = createQueryClient();
  render(<App router={router as never} queryClient={queryClient} />);
  return userEvent.setup();
}

/** The open confirmation's OK button (the popover's, not the document's own Send). */
const okOf = () => document.querySelector('.ant-popover:not(.ant-popover-hidden) .ant-btn-primary') as HTMLElement;

const buttons = () =>
  within(screen.getByTestId('doc-actions'))
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('the document block', { timeout: 30_000 }, () => {
  // the app's layout follows the path's language; this page stands alone
  beforeEach(() => i18n.changeLanguage('en'));

  it('shows the buttons its abilities allow, in the table’s order, and one needing a manager says so', async () => {
    mockFetch();
    signedIn();
    show(doc({ send: true, cancel: 'approval', edit: false }));
    await screen.findByTestId('doc-details');
    expect(buttons()).toEqual(['Send', 'Cancel document (needs a manager)']);
  });

  it('confirms, sends a keyed write, a new key after a refusal, and shows the refusal in the server’s words', async () => {
    let answer = 409;
    const { calls } = mockFetch({
      'POST docs/5/send': () =>
        answer === 409
          ? { status: 409, body: { message: 'Not enough stock to send.' } }
          : { body: { message: 'Sent.', data: doc({ send: false, cancel: false, edit: false }) } },
    });
    signedIn();
    const user = show(doc({ send: true, cancel: false, edit: false }));
    await user.click(await screen.findByTestId('doc-send'));
    await screen.findByText('The stock leaves.');
    await user.click(okOf());
    expect((await screen.findByTestId('doc-error')).textContent).toContain('Not enough stock to send.');
    answer = 200;
    await user.click(screen.getByTestId('doc-send'));
    await user.click(okOf());
    await waitFor(() => expect(calls('POST docs/5/send')).toHaveLength(2));
    const [first, second] = calls('POST docs/5/send');
    expect(first.headers['idempotency-key']).toBeTruthy();
    expect(second.headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
    await waitFor(() => expect(screen.queryByTestId('doc-error')).toBeNull());
  });

  it('keeps the key while the outcome is unknown (no answer), so the retry cannot act twice', async () => {
    let drop = true;
    const { calls } = mockFetch({
      'POST docs/5/cancel': () =>
        drop
          ? { networkError: true }
          : { body: { message: 'Cancelled.', data: doc({ send: false, cancel: false, edit: false }) } },
    });
    signedIn();
    const user = show(doc({ send: false, cancel: true, edit: false }));
    await user.click(await screen.findByTestId('doc-cancel'));
    await screen.findByTestId('doc-error');
    drop = false;
    await user.click(screen.getByTestId('doc-cancel'));
    await waitFor(() => expect(calls('POST docs/5/cancel')).toHaveLength(2));
    const [first, second] = calls('POST docs/5/cancel');
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(second.body).toEqual({ reason: null });
  });

  it('asks a manager when the server answers 403 approval_required, and sends the approval with the body', async () => {
    const { calls } = mockFetch({
      'POST docs/5/cancel': ({ body }) =>
        (body as { approval?: unknown }).approval
          ? { body: { message: 'Cancelled.', data: doc({ send: false, cancel: false, edit: false }) } }
          : { status: 403, body: { message: 'A manager’s approval is needed.', code: 'approval_required' } },
    });
    signedIn();
    const user = show(doc({ send: false, cancel: true, edit: false }));
    await user.click(await screen.findByTestId('doc-cancel'));
    const dialog = await screen.findByTestId('approval-dialog');
    await user.type(within(dialog).getByLabelText('Manager’s username'), 'boss');
    await user.type(within(dialog).getByLabelText('Manager’s password'), 'pw');
    await user.click(screen.getByTestId('approval-ok'));
    await waitFor(() => expect(calls('POST docs/5/cancel')).toHaveLength(2));
    expect(calls('POST docs/5/cancel')[1].body).toEqual({ reason: null, approval: { name: 'boss', password: 'pw' } });
    await waitFor(() => expect(screen.queryByTestId('approval-dialog')).toBeNull());
  });
});
