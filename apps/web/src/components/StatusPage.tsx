import { Flex, theme } from 'antd';
import { type ComponentType, type CSSProperties, type ReactNode, useContext } from 'react';
import { InsideDashboard } from '../layouts/inside.ts';

const tones = { error: 'colorError', warning: 'colorWarning', info: 'colorInfo' } as const;

/**
 * The not-found, no-permission and server-error pages: an icon, a title, a message, ways out.
 * Not antd `Result`: its illustrations carry English titles ("No Found") into Khmer pages. Plain
 * markup, because the server-error page must show even when a screen's chunks cannot load.
 */
export function StatusPage({
  testId,
  icon: Icon,
  tone,
  title,
  message,
  detail,
  actions,
}: {
  testId: string;
  icon: ComponentType<{ style?: CSSProperties; 'aria-hidden'?: boolean }>;
  tone: keyof typeof tones;
  title: string;
  message: ReactNode;
  /** A second line, such as a reference for support. */
  detail?: ReactNode;
  actions: ReactNode;
}) {
  const { token } = theme.useToken();
  const Heading = useContext(InsideDashboard) ? 'h2' : 'h1';
  const secondary = { margin: 0, color: token.colorTextSecondary };
  return (
    <Flex
      data-testid={testId}
      vertical
      align="center"
      gap={16}
      style={{ padding: '64px 24px', textAlign: 'center', color: token.colorText }}
    >
      {/* Decorative: the title says it, and the icon's own label is an English name. */}
      <Icon aria-hidden style={{ fontSize: 72, color: token[tones[tone]] }} />
      <Heading style={{ margin: 0, fontSize: token.fontSizeHeading3, fontWeight: 600 }}>{title}</Heading>
      <p style={secondary}>{message}</p>
      {detail && <p style={secondary}>{detail}</p>}
      <Flex gap={8} wrap justify="center">
        {actions}
      </Flex>
    </Flex>
  );
}
