import { Badge, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ShownState, useConnectionState } from '../lib/realtime.ts';

const badge: Record<ShownState, 'default' | 'processing' | 'success' | 'warning' | 'error'> = {
  initialized: 'default',
  connecting: 'processing',
  connected: 'success',
  unavailable: 'warning',
  failed: 'error',
  disconnected: 'default',
  offline: 'error',
  reconnecting: 'processing',
};

/**
 * The real-time connection's state (spec section 4) in the header: a dot and a word, the word
 * dropped on narrow screens; read out when it changes, with what it means for the screens.
 */
export function ConnectionStatus({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const state = useConnectionState();
  const label = t(`realtime.state.${state}`);
  const help = t(`realtime.help.${state}`);
  return (
    <Tooltip title={help}>
      <span
        role="status"
        aria-live="polite"
        aria-label={`${t('realtime.label', { state: label })}. ${help}`}
        data-testid="connection-state"
        data-state={state}
        style={{ display: 'inline-flex', alignItems: 'center', whiteSpace: 'nowrap' }}
      >
        <Badge
          status={badge[state]}
          text={
            compact ? undefined : (
              <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                {label}
              </Typography.Text>
            )
          }
        />
      </span>
    </Tooltip>
  );
}
