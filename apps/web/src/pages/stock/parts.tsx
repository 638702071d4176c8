import type { AdjustmentReason, MovementType } from '@depot/contracts';
import { Card, Flex, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { formatCount } from '../../lib/format.ts';

/** Pieces of the stock screens: the names of movements, reasons and documents, the table card. */

export function movementTypeLabels(t: TFunction): Record<MovementType, string> {
  return {
    purchase_receipt: t('stock.movement.purchase_receipt'),
    sale: t('stock.movement.sale'),
    return: t('stock.movement.return'),
    adjustment: t('stock.movement.adjustment'),
    transfer_out: t('stock.movement.transfer_out'),
    transfer_in: t('stock.movement.transfer_in'),
    bundle_consumption: t('stock.movement.bundle_consumption'),
    expiry_write_off: t('stock.movement.expiry_write_off'),
  };
}

export function reasonLabels(t: TFunction): Record<AdjustmentReason, string> {
  return {
    count: t('stock.reason.count'),
    damage: t('stock.reason.damage'),
    loss: t('stock.reason.loss'),
    found: t('stock.reason.found'),
    expired: t('stock.reason.expired'),
    opening: t('stock.reason.opening'),
  };
}

/** What a movement's document is called: "Purchase #12". */
export function documentLabel(t: TFunction, type: string | null, id: number | null): string {
  if (!type) return '—';
  const names: Record<string, string> = {
    purchase: t('stock.document.purchase'),
    transfer: t('stock.document.transfer'),
    adjustment: t('stock.document.adjustment'),
    write_off: t('stock.document.write_off'),
    sale: t('stock.document.sale'),
    order: t('stock.document.sale'),
  };
  return `${names[type] ?? type}${id ? ` #${id}` : ''}`;
}

/** The card every stock table sits in: the title, buttons on the right, filters above the table. */
export function TableCard({
  title,
  extra,
  filters,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  filters?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card title={<PageTitle>{title}</PageTitle>} extra={extra}>
      {filters && (
        <Flex wrap gap={12} align="center" style={{ marginBottom: 16 }}>
          {filters}
        </Flex>
      )}
      {children}
    </Card>
  );
}

/** A signed quantity: green in, red out (antd's text colours follow the dark theme). */
export function SignedQuantity({ value }: { value: number }) {
  return (
    <Typography.Text type={value > 0 ? 'success' : value < 0 ? 'danger' : undefined} strong>
      {value > 0 ? '+' : ''}
      {formatCount(value)}
    </Typography.Text>
  );
}
