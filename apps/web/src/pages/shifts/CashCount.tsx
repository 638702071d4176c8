import { type CashCount, type CashCurrency, type CountLine, countTotal, formatKhr, formatUsd } from '@depot/contracts';
import { Card, Col, Flex, InputNumber, Row, Typography } from 'antd';
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

/**
 * A drawer counted by denomination, dollars and riel side by side: how many of each note, and what
 * that comes to per currency. `testId`-usd-2000 is the field of $20 notes.
 */
export function CashCountInput({
  value,
  onChange,
  testId,
  errors,
}: {
  value: CashCount;
  onChange: (next: CashCount) => void;
  testId: string;
  errors?: Record<string, string[]>;
}) {
  const { t } = useCtx();
  const set = (currency: CashCurrency, index: number, count: number) =>
    onChange({
      ...value,
      [currency]: value[currency].map((line, i) => (i === index ? { ...line, count } : line)),
    });
  const column = (currency: CashCurrency) => (
    <Card
      size="small"
      title={currency === 'usd' ? t('shifts.dollars') : t('shifts.riel')}
      extra={
        <Typography.Text strong data-testid={`${testId}-${currency}-total`}>
          {money(currency, countTotal(value[currency]))}
        </Typography.Text>
      }
    >
      <Flex vertical gap={6}>
        {value[currency].map((line, index) => {
          const problem = errors?.[`${testId === 'float' ? 'float' : 'counted'}.${currency}.${index}.value`];
          return (
            <Flex key={line.value} align="center" justify="space-between" gap={8}>
              <Typography.Text style={{ minWidth: 80 }}>{face(currency, line.value)}</Typography.Text>
              <span>×</span>
              <InputNumber<number>
                aria-label={`${face(currency, line.value)} ×`}
                data-testid={`${testId}-${currency}-${line.value}`}
                min={0}
                max={100000}
                precision={0}
                value={line.count}
                status={problem ? 'error' : undefined}
                onChange={(next) => set(currency, index, next ?? 0)}
                style={{ width: 100 }}
              />
              <Typography.Text type="secondary" style={{ minWidth: 100, textAlign: 'end' }}>
                {money(currency, line.value * line.count)}
              </Typography.Text>
            </Flex>
          );
        })}
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
