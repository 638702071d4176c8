import { CheckOutlined } from '@ant-design/icons';
import { Button, Flex, Result } from 'antd';
import type { ComponentType } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { localePath } from '../lib/locale.ts';
import { Loaded } from './detail.tsx';
import type { DraftState, draftStore } from './draft.ts';
import { useRecord } from './queries.ts';
import type { ResourceDef, Row } from './resource.ts';
import { useCtx } from './useCtx.ts';

/**
 * The pages of a record written through a review (a purchase, a combo): the form, then the review,
 * the draft carried between them (kit/draft.ts).
 */

type Store<D> = ReturnType<typeof draftStore<D>>;

/** The form: starts from `initial`; `errors` are the server's 422 the review sent back, shown on the fields. */
export type DraftForm<D> = ComponentType<{ initial: D; errors?: Record<string, string[]> }>;

interface FormPageProps<D, R extends Row> {
  store: Store<D>;
  record: Pick<ResourceDef<R>, 'api' | 'row'>;
  /** The saved record as a draft, for `/update/:id`. */
  draftOf: (saved: R) => D;
  empty: () => D;
  Form: DraftForm<D>;
}

/**
 * `/…/create` and `/…/update/:id`: a new draft, the saved record, or the draft (and the server's
 * errors) the review sent back.
 */
export function DraftFormPage<D, R extends Row>(props: FormPageProps<D, R>) {
  const { id } = useParams();
  const { state, key } = useLocation();
  const from = props.store.state(state);
  const { Form } = props;
  if (id) return <EditDraft key={key} {...props} id={Number(id)} from={from} />;
  return <Form key={key} initial={from.draft ?? props.empty()} errors={from.errors} />;
}

function EditDraft<D, R extends Row>({
  record: def,
  draftOf,
  Form,
  id,
  from,
}: FormPageProps<D, R> & { id: number; from: DraftState<D> }) {
  const record = useRecord(def, from.draft ? null : id);
  if (from.draft) return <Form initial={from.draft} errors={from.errors} />;
  return (
    <Loaded record={record} card>
      {(saved) => <Form key={saved.id} initial={draftOf(saved)} />}
    </Loaded>
  );
}

/**
 * `/…/review`: the draft from the form, or after a reload from sessionStorage; without one, a way
 * to start a new record.
 */
export function DraftReviewPage<D>({
  store,
  Review,
  nothing,
}: {
  store: Store<D>;
  Review: ComponentType<{ draft: D; from: DraftState<D> }>;
  nothing: { title: string; create: string; path: string };
}) {
  const { locale } = useCtx();
  const navigate = useNavigate();
  const { state } = useLocation();
  const from = store.state(state);
  const draft = from.draft ?? store.load();
  if (!draft) {
    return (
      <Result
        status="info"
        title={nothing.title}
        extra={
          <Button type="primary" onClick={() => void navigate(localePath(nothing.path, locale))}>
            {nothing.create}
          </Button>
        }
      />
    );
  }
  return <Review draft={draft} from={from} />;
}

/** The review's two buttons: write it (once `ready`), or go back to the form. */
export function ReviewButtons({
  label,
  ready,
  pending,
  onConfirm,
  onEdit,
}: {
  label: string;
  ready: boolean;
  pending: boolean;
  onConfirm: () => void;
  onEdit: () => void;
}) {
  const { t } = useCtx();
  return (
    <Flex gap={12}>
      <Button
        type="primary"
        icon={<CheckOutlined />}
        data-testid="confirm"
        loading={pending}
        disabled={!ready}
        onClick={onConfirm}
      >
        {label}
      </Button>
      <Button data-testid="back-to-edit" disabled={pending} onClick={onEdit}>
        {t('purchases.backToEdit')}
      </Button>
    </Flex>
  );
}
