import { type CashCount, type CashCurrency, type CountLine, countTotal, formatKhr, formatUsd } from '@depot/contracts';
import { Card, Col, Flex, Form, InputNumber, Row, Typography } from 'antd';
import { useCtx } from '../../kit/useCtx.ts';

export const money = (currency: CashCurrency, value: number) =>
  currency === 'usd' ? formatUsd(value) : formatKhr(value);

/** A note's face: $20, 10,000៛. */
const face = (currency: CashCurrency, value: number) => (currency === 'usd' ? `$${value / 100}` : formatKhr(value));

/** An empty count of the settings' notes. */
export function emptyCount(notes: { usd: number[]; khr: number[] }): CashCount {
  const lines = (list: number[]): CountLine[] => [...list].sort((a, b) => b - a).map((value) => ({ value, count: 0 }));
  return { usd: lines(notes.usd), khr: lines(notes.khr) };
}

/** A 422's key on a count (`float.usd.0.value`, a note the settings do not hold) on its note's field. */
export function countKey(key: string): string {
  return key.replace(/^((float|counted)\.(usd|khr)\.\d+)\.value$/, '$1.count');
}

/**
 * A drawer counted by denomination, dollars and riel side by side: how many of each note (the
 * form's `field`, a CashCount: `float.usd.2.count`, its message under it), and what that comes to
 * per currency. `field`-usd-2000 is the field of $20 notes.
 */
export function CashCountInput({ field }: { field: 'float' | 'counted' }) {
  const { t } = useCtx();
  const value: CashCount | undefined = Form.useWatch(field, { preserve: true });
  if (!value) return null;
  const column = (currency: CashCurrency) => (
    <Card
      size="small"
      title={currency === 'usd' ? t('shifts.dollars') : t('shifts.riel')}
      extra={
        <Typography.Text strong data-testid={`${field}-${currency}-total`}>
          {money(currency, countTotal(value[currency]))}
        </Typography.Text>
      }
    >
      <Flex vertical gap={6}>
        {value[currency].map((line, index) => (
          <Flex key={line.value} align="center" justify="space-between" gap={8}>
            <Typography.Text style={{ minWidth: 80 }}>{face(currency, line.value)}</Typography.Text>
            <span>×</span>
            <Form.Item name={[field, currency, index, 'count']} normalize={(next) => next ?? 0} style={{ margin: 0 }}>
              <InputNumber<number>
                aria-label={`${face(currency, line.value)} ×`}
                data-testid={`${field}-${currency}-${line.value}`}
                min={0}
                max={100000}
                precision={0}
                style={{ width: 100 }}
              />
            </Form.Item>
            <Typography.Text type="secondary" style={{ minWidth: 100, textAlign: 'end' }}>
              {money(currency, line.value * line.count)}
            </Typography.Text>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} md={12}>
        {column('usd')}
      </Col>
      <Col xs={24} md={12}>
        {column('khr')}
      </Col>
    </Row>
  );
}
