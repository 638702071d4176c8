import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { useCtx } from '../../kit/useCtx.ts';
import { DATE_INPUT_FORMAT } from '../../lib/dates.ts';
import { StoreSelect } from '../../resources/parties.tsx';

/** The address's filters a report page changes (`null` removes one). */
export type SetFilters = (changes: Record<string, string | null>) => void;

/** A report's period (from, to: YYYY-MM-DD) and store (none: every store the user covers). */
export function PeriodAndStore({
  from,
  to,
  storeId,
  set,
  storeTestId,
}: {
  from: string;
  to: string;
  storeId: string | null;
  set: SetFilters;
  storeTestId?: string;
}) {
  const { t } = useCtx();
  return (
    <>
      <DatePicker.RangePicker
        format={DATE_INPUT_FORMAT}
        aria-label={t('reports.range')}
        allowClear={false}
        value={[dayjs(from), dayjs(to)]}
        onChange={(range) => {
          if (range?.[0] && range[1]) set({ from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') });
        }}
      />
      <div style={{ minWidth: 220 }}>
        <StoreSelect
          allowClear
          aria-label={t('reports.store')}
          style={{ width: '100%' }}
          placeholder={t('reports.allStores')}
          value={storeId ? Number(storeId) : null}
          onChange={(v) => set({ store_id: v ? String(v) : null })}
          data-testid={storeTestId}
        />
      </div>
    </>
  );
}
