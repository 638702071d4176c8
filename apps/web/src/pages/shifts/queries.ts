import { shiftDetail, shiftSettings, single } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/http.ts';

/** The notes counted (settings) and whether the close is blind; the till reads them with shifts.list. */
export function useShiftSettings() {
  return useQuery({
    queryKey: ['shifts', 'settings'],
    queryFn: () => api('shifts/settings', { schema: single(shiftSettings) }).then((r) => r.data),
  });
}

/** The signed-in user's open shift (at any store), or null. */
export function useCurrentShift(enabled = true) {
  return useQuery({
    queryKey: ['shifts', 'current'],
    queryFn: () => api('shifts/current', { schema: single(shiftDetail.nullable()) }).then((r) => r.data),
    enabled,
  });
}
