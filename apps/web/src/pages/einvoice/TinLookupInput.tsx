import { SearchOutlined } from '@ant-design/icons';
import { einvoiceBusiness, single } from '@depot/contracts';
import { App, Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useCtx } from '../../kit/useCtx.ts';
import { api } from '../../lib/http.ts';
import { problemOf } from './common.ts';

/**
 * A customer's VAT TIN with "Look up on CamInvoice": the server asks CamInvoice (with the
 * business's own connection; the browser never calls out) and the form's name and address are
 * filled from the register. Inside a form item, as any input.
 */
export function TinLookupInput({
  value,
  onChange,
  id,
  maxLength = 30,
}: {
  value?: string | null;
  onChange?: (value: string) => void;
  id?: string;
  maxLength?: number;
}) {
  const { t, locale } = useCtx();
  const form = Form.useFormInstance();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const lookup = async () => {
    const tin = (value ?? '').trim();
    if (!tin) return;
    setBusy(true);
    try {
      const found = (
        await api(`caminvoice/businesses?tin=${encodeURIComponent(tin)}`, { schema: single(einvoiceBusiness) })
      ).data;
      const name = locale === 'kh' ? (found.name_kh ?? found.name_en) : (found.name_en ?? found.name_kh);
      form.setFieldsValue({
        ...(name ? { name } : {}),
        ...(found.address ? { address: found.address } : {}),
        vat_number: found.tin ?? tin,
      });
      message.success(t('einvoice.lookupFilled', { name: name ?? found.endpoint_id }));
    } catch (error) {
      message.error(problemOf(error, locale));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input id={id} value={value ?? ''} maxLength={maxLength} onChange={(e) => onChange?.(e.target.value)} />
      <Button icon={<SearchOutlined />} loading={busy} onClick={() => void lookup()} data-testid="tin-lookup">
        {t('einvoice.lookup')}
      </Button>
    </Space.Compact>
  );
}
