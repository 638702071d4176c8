import { Alert, Flex, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { localePath } from '../../lib/locale.ts';
import { money } from '../shifts/CashCount.tsx';
import { useCurrentShift, useShiftSettings } from '../shifts/queries.ts';

/**
 * The cashier's shift at the till (header): open since when, at which till, what the drawer should
 * hold (unless the close is blind for them), with a link to close it; or no open shift, with a link
 * to open one, said as a warning before any cart when the settings make sales need an open shift.
 */
export function ShiftBar() {
  const { t, locale } = useCtx();
  const canList = useCan('shifts.list');
  const current = useCurrentShift(canList);
  const settings = useShiftSettings();
  if (!canList || current.data === undefined) return null;
  const shift = current.data;
  const required = settings.data?.require_shift === true;
  if (shift) {
    const drawer = shift.usd.expected !== null && shift.khr.expected !== null;
    return (
      <Flex align="center" gap={6} wrap data-testid="pos-shift" data-state="open">
        <Tag color="green" style={{ marginInlineEnd: 0 }}>
          {t('pos.shift.open', { till: shift.till, since: formatDateTime(shift.opened_at, locale) })}
        </Tag>
        {drawer && (
          <Typography.Text type="secondary" style={{ fontSize: 13 }} data-testid="pos-shift-drawer">
            {t('pos.shift.drawer', {
              usd: money('usd', shift.usd.expected ?? 0),
              khr: money('khr', shift.khr.expected ?? 0),
            })}
          </Typography.Text>
        )}
        <Link to={`${localePath('/shifts', locale)}?view=${shift.id}`} data-testid="pos-shift-close">
          {t('pos.shift.close')}
        </Link>
      </Flex>
    );
  }
  const link = (
    <Link to={`${localePath('/shifts', locale)}?open=1`} data-testid="pos-shift-open">
      {t('pos.shift.openOne')}
    </Link>
  );
  if (required)
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="pos-shift"
        data-state="required"
        title={t('pos.shift.required')}
        action={link}
        style={{ paddingBlock: 4 }}
      />
    );
  return (
    <Flex align="center" gap={6} data-testid="pos-shift" data-state="none">
      <Tag style={{ marginInlineEnd: 0 }}>{t('pos.shift.none')}</Tag>
      {link}
    </Flex>
  );
}
