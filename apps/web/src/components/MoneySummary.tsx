import { formatUsd } from '@depot/contracts';
import { Flex, Typography } from 'antd';

/** The money of a purchase, one figure a line, the grand total and what is left to pay standing out. */
export function MoneySummary({
  rows,
}: {
  rows: { key: string; label: string; cents: number; strong?: boolean; danger?: boolean }[];
}) {
  return (
    <Flex vertical gap={4} style={{ minWidth: 260, marginInlineStart: 'auto' }} data-testid="money-summary">
      {rows.map((row) => (
        <Flex key={row.key} justify="space-between" gap={24}>
          <Typography.Text type={row.strong ? undefined : 'secondary'} strong={row.strong}>
            {row.label}
          </Typography.Text>
          <Typography.Text
            strong={row.strong}
            type={row.danger ? 'danger' : undefined}
            data-testid={`total-${row.key}`}
          >
            {formatUsd(row.cents)}
          </Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
