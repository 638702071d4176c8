import { PlusOutlined } from '@ant-design/icons';
import { countDetail, countInput, type StockCount, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { createContext, useContext, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSessionStore } from '../../components/stores.tsx';
import { ListPage } from '../../kit/ListPage.tsx';
import { useWritten } from '../../kit/queries.ts';
import type { ResourceDef } from '../../kit/resource.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { parseWith, useFormCheck } from '../../lib/forms.ts';
import { api, newIdempotencyKey } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { counts } from '../../resources/counts.tsx';
import { StoreSelect } from '../../resources/parties.tsx';

const answer = written(countDetail);
const FIELDS = ['store_id', 'zone', 'note'] as const;

const OpenContext = createContext<() => void>(() => {});

function NewCountButton() {
  const { t } = useCtx();
  const open = useContext(OpenContext);
  if (!useCan('stock_counts.create')) return null;
  return (
    <Button type="primary" icon={<PlusOutlined />} data-testid="create" onClick={open}>
      {t('counts.create')}
    </Button>
  );
}

const listDef: ResourceDef<StockCount> = { ...counts, toolbar: () => <NewCountButton /> };

interface Values {
  store_id: number | null;
  zone: string;
  note: string;
}

/** A new count: the store (the user's own unless they choose) and where on the floor. */
function NewCountDialog({ onClose }: { onClose: () => void }) {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const home = useSessionStore();
  const written_ = useWritten();
  const { problem, place, edited, fail, setProblem } = useFormCheck(form, FIELDS, locale);
  // one key for this dialog: Start again after a lost answer does not start two counts
  const [key] = useState(newIdempotencyKey);
  const start = useMutation({
    mutationFn: (body: unknown) => api('stock-counts', { method: 'POST', body, schema: answer, idempotencyKey: key }),
  });
  const saving = start.isPending;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the user's store becomes known
  useEffect(() => {
    if (home.id && form.getFieldValue('store_id') == null) form.setFieldValue('store_id', home.id);
  }, [home.id]);

  const submit = async () => {
    const parsed = parseWith(countInput, form.getFieldsValue(true), locale);
    if (!parsed.data) {
      place(parsed.errors);
      return;
    }
    setProblem(null);
    try {
      const made = await start.mutateAsync(parsed.data);
      void written_(made);
      await navigate(localePath(`/stocks/counts/${made.data.id}`, locale));
    } catch (error) {
      fail(error);
    }
  };

  return (
    <Modal
      open
      title={t('counts.create')}
      okText={t('counts.start')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="count-form"
        disabled={saving}
        initialValues={{ store_id: null, zone: '', note: '' }}
        onValuesChange={edited}
        onFinish={() => void submit()}
      >
        {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 16 }} />}
        <Form.Item name="store_id" label={t('counts.store')}>
          <StoreSelect covered data-testid="count-store" />
        </Form.Item>
        <Form.Item name="zone" label={t('counts.zone')} extra={t('counts.zoneHelp')}>
          <Input maxLength={60} data-testid="count-zone" />
        </Form.Item>
        <Form.Item name="note" label={t('stock.note')}>
          <Input maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** `/stocks/counts`: the counts, and a new one (opened on its own screen once made). */
export function CountsPage() {
  const [open, setOpen] = useState(false);
  return (
    <OpenContext.Provider value={() => setOpen(true)}>
      <ListPage def={listDef} />
      {open && <NewCountDialog onClose={() => setOpen(false)} />}
    </OpenContext.Provider>
  );
}
