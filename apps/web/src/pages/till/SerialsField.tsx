import { issueMessage, serialText } from '@depot/contracts';
import { Flex, Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useCtx } from '../../kit/useCtx.ts';
import { type TillLine, withoutSerial, withSerial } from './cart.ts';

/**
 * A serial-tracked line's serials (an IMEI each) at the till: scanned or typed into the field, one
 * per unit, checked as the server will check them (contracts serials.ts: an IMEI's Luhn digit);
 * the line's quantity is their count. The server still checks each is in stock at the store.
 */
export function SerialsField({
  line,
  index,
  change,
}: {
  line: TillLine;
  index: number;
  change: (next: (line: TillLine) => TillLine) => void;
}) {
  const { t, locale } = useCtx();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const serials = line.serials ?? [];

  const add = () => {
    if (!typed.trim()) return;
    const parsed = serialText.safeParse(typed);
    if (!parsed.success) {
      setError(issueMessage(parsed.error.issues[0], locale));
      return;
    }
    if (serials.includes(parsed.data)) {
      setError(t('serials.already'));
      return;
    }
    change((current) => withSerial(current, parsed.data));
    setTyped('');
    setError(null);
  };

  return (
    <Flex vertical gap={4} style={{ marginTop: 6 }} data-testid={`line-${index}-serials`}>
      {serials.length > 0 && (
        <Flex wrap gap={4}>
          {serials.map((serial) => (
            <Tag
              key={serial}
              closable
              closeIcon
              onClose={() => change((current) => withoutSerial(current, serial))}
              style={{ fontFamily: 'monospace' }}
            >
              {serial}
            </Tag>
          ))}
        </Flex>
      )}
      <Input
        size="small"
        // a scanner types the serial and Enter: the field is where the cashier scans next
        autoFocus={serials.length === 0}
        value={typed}
        status={error ? 'error' : undefined}
        placeholder={t('serials.scan')}
        aria-label={t('serials.scanOf', { line: index + 1 })}
        data-testid={`line-${index}-serial-input`}
        inputMode="text"
        autoComplete="off"
        onChange={(event) => {
          setTyped(event.target.value);
          setError(null);
        }}
        onPressEnter={add}
        onBlur={add}
      />
      {error ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert">
          {error}
        </Typography.Text>
      ) : (
        serials.length === 0 && (
          <Typography.Text type="warning" style={{ fontSize: 12 }}>
            {t('serials.needed')}
          </Typography.Text>
        )
      )}
    </Flex>
  );
}
