import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type Printer, printer, printerInput, type Store } from '@depot/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Switch,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { failureMessage, usePage, useWrite } from '../kit/queries.ts';
import type { Ctx } from '../kit/resource.ts';
import { unseenTitle } from '../kit/table.ts';
import { useCtx } from '../kit/useCtx.ts';
import { useFormCheck } from '../lib/forms.ts';
import { DRAWER_PIN_OPTIONS } from '../lib/printing/targets.ts';

/**
 * A store's network receipt printers, under the store's form (whoever may update the store sets
 * them up): a name, the printer's address on the depot's network and its port (9100, the raw
 * port of ESC/POS printers), the roll's width, and whether a cash drawer is wired to it.
 */
const def = { api: 'printers', row: printer } as const;
type Values = Record<string, unknown>;
const PRINTER_FIELDS = ['name', 'host', 'port', 'paper', 'drawer_kick', 'drawer_pin', 'status'];

function PrinterForm({ store, record, onClose }: { store: Store; record: Printer | null; onClose: () => void }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { save } = useWrite(def);
  const { problem, check, fail, edited } = useFormCheck(form, PRINTER_FIELDS, locale);
  const submit = async () => {
    const body = check(printerInput, { ...form.getFieldsValue(true), store_id: store.id });
    if (!body) return;
    try {
      const answer = await save.mutateAsync(
        record ? { action: 'update', id: record.id, body } : { action: 'create', body },
      );
      void message.success(answer.message);
      onClose();
    } catch (error) {
      fail(error);
    }
  };
  return (
    <Modal
      open
      title={record ? t('printing.editPrinter') : t('printing.addPrinter')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('kit.save')}
      cancelText={t('kit.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="printer-form"
        initialValues={
          record ?? { name: '', host: '', port: 9100, paper: '80', drawer_kick: false, drawer_pin: 2, status: 'active' }
        }
        onValuesChange={edited}
      >
        {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
        <Form.Item name="name" label={t('fields.name')}>
          <Input maxLength={50} data-testid="printer-name" />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item name="host" label={t('printing.host')} extra={t('printing.hostHelp')} style={{ flex: 1 }}>
            <Input maxLength={253} data-testid="printer-host" />
          </Form.Item>
          <Form.Item name="port" label={t('printing.port')}>
            <InputNumber min={1} max={65535} precision={0} data-testid="printer-port" />
          </Form.Item>
        </Flex>
        <Form.Item name="paper" label={t('printing.paper')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: '80', label: '80 mm' },
              { value: '58', label: '58 mm' },
            ]}
          />
        </Form.Item>
        <Flex gap={24}>
          <Form.Item name="drawer_kick" label={t('printing.drawer')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="drawer_pin" label={t('printing.pin')}>
            <Radio.Group options={DRAWER_PIN_OPTIONS} />
          </Form.Item>
        </Flex>
      </Form>
    </Modal>
  );
}

export function StorePrinters({ store }: { store: Store }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const page = usePage('printers', printer, `filter[store_id]=${store.id}&per_page=100`);
  const { remove } = useWrite(def);
  const [editing, setEditing] = useState<Printer | 'new' | null>(null);
  const drop = async (row: Printer) => {
    try {
      void message.success((await remove.mutateAsync(row.id)).message);
    } catch (error) {
      void message.error(failureMessage(error, locale));
    }
  };
  return (
    <Card
      title={t('printing.printers')}
      style={{ maxWidth: 720, marginTop: 16 }}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="printer-add">
          {t('printing.addPrinter')}
        </Button>
      }
      data-testid="store-printers"
    >
      <Table<Printer>
        size="small"
        rowKey="id"
        pagination={false}
        loading={page.isPending}
        dataSource={page.data?.data ?? []}
        locale={{ emptyText: t('printing.noPrinters') }}
        columns={[
          { key: 'name', title: t('fields.name'), render: (_, row) => row.name },
          { key: 'host', title: t('printing.host'), render: (_, row) => `${row.host}:${row.port}` },
          { key: 'paper', title: t('printing.paper'), render: (_, row) => `${row.paper} mm` },
          {
            key: 'drawer',
            title: t('printing.drawer'),
            render: (_, row) =>
              row.drawer_kick ? <Tag color="green">{t('printing.pinN', { pin: row.drawer_pin })}</Tag> : '—',
          },
          {
            key: 'actions',
            title: unseenTitle(t('kit.actions')),
            align: 'end',
            render: (_, row) => (
              <Flex gap={4} justify="flex-end">
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('kit.edit')}
                  onClick={() => setEditing(row)}
                />
                <Popconfirm
                  title={t('printing.removeTitle', { name: row.name })}
                  okText={t('kit.delete')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('kit.cancel')}
                  onConfirm={() => void drop(row)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('kit.delete')} />
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      {editing && (
        <PrinterForm store={store} record={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Card>
  );
}

/**
 * The store form's KHQR fields: the Bakong account the store receives payments into. Only an
 * administrator may change it (the server's store policy); the store's `abilities.payee` says
 * whether the reader may, else the fields are read-only. A new store's account is set once it is
 * saved, by whoever may.
 */
export function khqrFields(ctx: Ctx) {
  const text = (name: string, label: string, max: number, help?: string) => ({
    name,
    label,
    half: true,
    help,
    control: <Input maxLength={max} />,
    readOnly: (record: unknown) => (record as Store | undefined)?.abilities?.payee !== true,
  });
  return [
    text('khqr_account_id', ctx.t('stores.khqrAccount'), 32, ctx.t('stores.khqrAccountHelp')),
    text('khqr_merchant_name', ctx.t('stores.khqrMerchantName'), 25, ctx.t('stores.khqrLatinHelp')),
    text('khqr_merchant_city', ctx.t('stores.khqrMerchantCity'), 15),
    text('khqr_merchant_id', ctx.t('stores.khqrMerchantId'), 32, ctx.t('stores.khqrMerchantIdHelp')),
    text('khqr_acquiring_bank', ctx.t('stores.khqrAcquiringBank'), 32),
  ];
}
