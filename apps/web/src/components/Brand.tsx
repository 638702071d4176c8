import { Flex, theme } from 'antd';
import { useSettings, useTitle } from '../lib/settings.ts';

/** The logo from the settings (or the bundled mark) and, unless left out, the system title. */
export function Brand({ size = 40, showTitle = true }: { size?: number; showTitle?: boolean }) {
  const { settings } = useSettings();
  const title = useTitle();
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={12}>
      <img
        src={settings.logo_url ?? '/favicon.svg'}
        alt=""
        width={size}
        height={size}
        style={{ objectFit: 'contain', borderRadius: 8 }}
      />
      {showTitle && (
        <h1
          data-testid="app-title"
          style={{
            margin: 0,
            textAlign: 'center',
            fontSize: token.fontSizeHeading3,
            fontWeight: 600,
            lineHeight: 1.5,
            color: token.colorTextHeading,
          }}
        >
          {title}
        </h1>
      )}
    </Flex>
  );
}
