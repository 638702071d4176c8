import { DashboardOutlined } from '@ant-design/icons';
import { formatQuantity, parseQuantity } from '@depot/contracts';
import { App, Button, Flex, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { localName } from '../../kit/resource.ts';
import { useCtx } from '../../kit/useCtx.ts';
import type { TillLine } from './cart.ts';
import { hasSerialScale, weighOnScale } from './scale.ts';

/**
 * A weighed line's quantity: typed in its unit with up to its decimals ("1.25" kg), kept as whole
 * steps (1250 g); where the browser has Web Serial and the unit is weighed in kilograms (3
 * decimals), a button reads the scale's settled weight.
 */
export function WeightInput({
  line,
  index,
  onChange,
}: {
  line: TillLine;
  index: number;
  onChange: (quantity: number) => void;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const decimals = line.decimals ?? 0;
  const shown = formatQuantity(line.quantity, decimals).replace(/,/g, '');
  const [text, setText] = useState(shown);
  const [weighing, setWeighing] = useState(false);
  // the quantity set from outside (a scan, the scale) replaces what is shown
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the value from outside, not each keystroke
  useEffect(() => {
    if (parseQuantity(text, decimals) !== line.quantity) setText(shown);
  }, [line.quantity]);
  const read = parseQuantity(text, decimals);
  const weigh = async () => {
    setWeighing(true);
    try {
      const steps = await weighOnScale(decimals);
      if (steps) onChange(steps);
      else void message.warning(t('scale.noWeight'));
    } catch {
      void message.error(t('scale.noScale'));
    } finally {
      setWeighing(false);
    }
  };
  return (
    <Flex align="center" gap={4}>
      <Input
        size="small"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        status={read === null || read < 1 ? 'error' : undefined}
        aria-label={t('lines.quantityOf', { line: index + 1 })}
        data-testid={`line-${index}-quantity`}
        onChange={(event) => {
          setText(event.target.value);
          const next = parseQuantity(event.target.value, decimals);
          if (next !== null && next >= 1) onChange(next);
        }}
        style={{ width: 96, textAlign: 'right' }}
      />
      {line.unit && (
        <Typography.Text type="secondary" ellipsis style={{ maxWidth: 140 }}>
          {localName(line.unit, locale)}
        </Typography.Text>
      )}
      {decimals === 3 && hasSerialScale() && (
        <Button
          size="small"
          icon={<DashboardOutlined />}
          loading={weighing}
          onClick={() => void weigh()}
          aria-label={t('scale.readOf', { line: index + 1 })}
          data-testid={`line-${index}-weigh`}
        >
          {t('scale.read')}
        </Button>
      )}
    </Flex>
  );
}
