import { customerName, type SerialRecord, type SerialStatus, serialRecord } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Empty, Flex, Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';

const found = z.object({ data: z.array(serialRecord) });
const STATUS_COLOR: Record<SerialStatus, string> = {
  in_stock: 'green',
  returned: 'cyan',
  sold: 'blue',
  moved: 'orange',
};

/**
 * `/serials`: who bought a serial (an IMEI), when, with what warranty; or where it is. Typed or
 * scanned into one field (the whole number, or its first digits); the answer is a card per unit,
 * readable on a phone. The search is kept in the address, so a link to it works.
 */
export function SerialsPage() {
  const { t, locale } = useCtx();
  const [params, setParams] = useSearchParams();
  const search = params.get('search')?.trim() ?? '';
  const [typed, setTyped] = useState(search);
  const answer = useQuery({
    queryKey: ['depot', 'serials', search],
    queryFn: async ({ signal }) =>
      (await api(`serials?search=${encodeURIComponent(search)}`, { signal, schema: found })).data,
    enabled: search.length > 0,
  });

  return (
    <Flex vertical gap={16} style={{ maxWidth: 880 }}>
      <Card title={<PageTitle>{t('menu.serials')}</PageTitle>}>
        <Typography.Paragraph type="secondary">{t('serials.searchHelp')}</Typography.Paragraph>
        <Input.Search
          autoFocus
          allowClear
          enterButton={t('serials.find')}
          size="large"
          value={typed}
          placeholder={t('serials.searchPlaceholder')}
          aria-label={t('serials.searchPlaceholder')}
          data-testid="serial-search"
          inputMode="text"
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value)}
          onSearch={(value) => setParams(value.trim() ? { search: value.trim() } : {}, { replace: true })}
          loading={answer.isFetching}
        />
      </Card>
      {answer.isError && <Alert type="error" showIcon title={failureMessage(answer.error, locale)} />}
      {answer.data && answer.data.length === 0 && (
        <Card>
          <Empty description={t('serials.none', { search })} />
        </Card>
      )}
      {answer.data?.map((unit) => (
        <UnitCard key={unit.id} unit={unit} />
      ))}
    </Flex>
  );
}

function UnitCard({ unit }: { unit: SerialRecord }) {
  const { t, locale } = useCtx();
  const name = locale === 'kh' ? unit.product_name_kh : unit.product_name_en;
  const other = locale === 'kh' ? unit.product_name_en : unit.product_name_kh;
  return (
    <Card
      data-testid="serial-unit"
      title={
        <Flex vertical>
          <Typography.Text strong style={{ fontFamily: 'monospace', fontSize: 16 }}>
            {unit.serial}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {name} · {other} · {unit.sku}
          </Typography.Text>
        </Flex>
      }
      extra={<Tag color={STATUS_COLOR[unit.status]}>{t(`serials.status.${unit.status}`)}</Tag>}
    >
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        {unit.customer_name && (
          <Descriptions.Item label={t('serials.buyer')}>
            {customerName(unit.customer_name, locale)}
            {unit.customer_phone && ` · ${unit.customer_phone}`}
          </Descriptions.Item>
        )}
        {unit.sold_at && (
          <Descriptions.Item label={t('serials.soldAt')}>{formatDateTime(unit.sold_at, locale)}</Descriptions.Item>
        )}
        {unit.order_number && (
          <Descriptions.Item label={t('serials.sale')}>
            <Link to={`/orders?search=${encodeURIComponent(unit.order_number)}`}>{unit.order_number}</Link>
            {unit.invoice_number && `\u00a0· ${unit.invoice_number}`}
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('serials.warranty')}>
          {unit.warranty_months > 0
            ? unit.warranty_until
              ? t('serials.warrantyUntil', {
                  months: unit.warranty_months,
                  until: formatDate(unit.warranty_until, locale),
                })
              : t('serials.warrantyMonths', { months: unit.warranty_months })
            : t('serials.noWarranty')}
        </Descriptions.Item>
        <Descriptions.Item label={t('serials.store')}>{unit.store_name}</Descriptions.Item>
        <Descriptions.Item label={t('serials.received')}>
          {formatDate(unit.received_at, locale)}
          {unit.purchase_number && ` · ${unit.purchase_number}`}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
