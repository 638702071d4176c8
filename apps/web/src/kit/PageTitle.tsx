import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A page's heading, in its first card's title: one size on every page. */
export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
      {children}
    </Typography.Title>
  );
}

/**
 * A page's heading with the way back before it: the kit's form page, and the form and review
 * pages of a purchase, a combo and an order. `label` names where back goes ("Back to the cart").
 */
export function BackTitle({ onBack, label, children }: { onBack: () => unknown; label?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Flex align="center" gap={8}>
      <Button
        type="text"
        icon={<ArrowLeftOutlined />}
        aria-label={label ?? t('kit.back')}
        onClick={() => void onBack()}
      />
      <PageTitle>{children}</PageTitle>
    </Flex>
  );
}
