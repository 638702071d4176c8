import { formatUsdCents, type ProductInput } from '@depot/contracts';
import { Flex, Form, Input, InputNumber, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useStores } from '../components/stores.tsx';
import { DateInput, UsdInput } from '../kit/inputs.tsx';
import { useCtx } from '../kit/useCtx.ts';
import { can, useCovers } from '../lib/access.tsx';

/**
 * A new product's opening stock: a row per active store the user covers (the session's coverage, as
 * the server told it; the server refuses another store on its field), a quantity in the product's base unit, a unit cost (empty: the product's cost price),
 * and, for a product with an expiry date, the lot and the batch's expiry. Only stores given a
 * quantity go to the server, which writes them as an `opening` stock adjustment with the product.
 */

type OpeningLine = NonNullable<ProductInput['opening_stock']>[number];

interface Draft {
  quantity: number | null;
  unit_cost_cents?: number | string;
  lot: string;
  expiry_date: string | null;
}

const EMPTY: Draft = { quantity: null, lot: '', expiry_date: null };

/**
 * Shown on a new product only (the form starts it as an empty list; an edited record has none) and
 * only to whoever may adjust stock, as the server's session says: the server refuses the rest.
 */
export const showOpeningStock = (values: Record<string, unknown>) =>
  Array.isArray(values.opening_stock) && can('stocks.create');

export function OpeningStockInput({
  onChange,
}: {
  value?: OpeningLine[] | null;
  onChange?: (value: OpeningLine[]) => void;
}) {
  const { t } = useCtx();
  const form = Form.useFormInstance();
  const unitCost = Form.useWatch('cost_usd_cents', form) as number | undefined;
  const expiry = Form.useWatch('expiry_date', form) as string | null | undefined;
  const covers = useCovers();
  const stores = (useStores().data?.data ?? []).filter(
    (row) => !row.deleted_at && row.status === 'active' && covers(row.id),
  );
  const [drafts, setDrafts] = useState<Record<number, Draft>>({});

  // the stores given a quantity; a lot and an expiry only for a product that expires
  const emit = (next: Record<number, Draft>, expires: string | null | undefined) =>
    onChange?.(
      Object.entries(next)
        .filter(([, draft]) => draft.quantity !== null && draft.quantity !== 0)
        .map(([id, draft]) => ({
          store_id: Number(id),
          quantity: draft.quantity as number,
          unit_cost_cents: draft.unit_cost_cents as number | undefined,
          lot: expires ? draft.lot : null,
          expiry_date: expires ? (draft.expiry_date ?? expires) : null,
        })),
    );
  const change = (storeId: number, patch: Partial<Draft>) => {
    const next = { ...drafts, [storeId]: { ...(drafts[storeId] ?? EMPTY), ...patch } };
    setDrafts(next);
    emit(next, expiry);
  };
  // the product's expiry date is each batch's unless one is chosen: a change of it follows
  // biome-ignore lint/correctness/useExhaustiveDependencies: the product's expiry is the trigger
  useEffect(() => {
    if (Object.keys(drafts).length > 0) emit(drafts, expiry);
  }, [expiry]);

  if (stores.length === 0) return <Typography.Text type="secondary">{t('products.openingNoStores')}</Typography.Text>;
  return (
    <Flex vertical gap={8} data-testid="opening-stock">
      {stores.map((store) => {
        const draft = drafts[store.id] ?? EMPTY;
        const name = `${store.name} (${store.code})`;
        return (
          <Flex key={store.id} gap={8} align="center" wrap>
            <Typography.Text style={{ minWidth: 160 }}>{name}</Typography.Text>
            <InputNumber<number>
              aria-label={t('products.openingQuantity', { store: name })}
              placeholder={t('stock.quantity')}
              min={0}
              precision={0}
              value={draft.quantity}
              onChange={(quantity) => change(store.id, { quantity })}
              style={{ width: 120 }}
            />
            <div style={{ width: 130 }}>
              <UsdInput
                aria-label={t('products.openingCost', { store: name })}
                placeholder={typeof unitCost === 'number' ? formatUsdCents(unitCost) : t('fields.cost')}
                value={draft.unit_cost_cents}
                onChange={(cents) => change(store.id, { unit_cost_cents: cents })}
              />
            </div>
            {expiry && (
              <>
                <Input
                  aria-label={t('products.openingLot', { store: name })}
                  placeholder={t('stock.lot')}
                  maxLength={40}
                  value={draft.lot}
                  onChange={(event) => change(store.id, { lot: event.target.value })}
                  style={{ width: 120 }}
                />
                <div style={{ width: 150 }}>
                  <DateInput
                    aria-label={t('products.openingExpiry', { store: name })}
                    placeholder={t('fields.expiry_date')}
                    value={draft.expiry_date ?? expiry}
                    onChange={(date) => change(store.id, { expiry_date: date })}
                  />
                </div>
              </>
            )}
          </Flex>
        );
      })}
    </Flex>
  );
}
