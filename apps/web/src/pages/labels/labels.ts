import { LABEL_SHEETS, type LabelSheet, labelSettings, single } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCtx } from '../../kit/useCtx.ts';
import { formatCount } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';

/** The label settings (the sheets), read by who may print labels. */
export function useLabelSettings(enabled = true) {
  return useQuery({
    queryKey: ['labels/settings'],
    queryFn: ({ signal }) => api('labels/settings', { schema: single(labelSettings), signal }),
    enabled,
  });
}

/** One sheet's name as people choose it: 3 × 8 · 24 a sheet · 70 × 37 mm. */
export function useSheetLabel() {
  const { t } = useCtx();
  return (name: LabelSheet) => {
    const s = LABEL_SHEETS[name];
    return t('labels.sheet', {
      layout: `${s.columns} × ${s.rows}`,
      count: formatCount(s.columns * s.rows),
      size: `${s.width} × ${s.height}`,
    });
  };
}
