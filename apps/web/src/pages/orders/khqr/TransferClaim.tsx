import { BankOutlined } from '@ant-design/icons';
import { BANK_HASH_PATTERN, type KhqrCurrency, type OrderDetail, orderDetail, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Input } from 'antd';
import { useCtx } from '../../../kit/useCtx.ts';
import { useFormCheck } from '../../../lib/forms.ts';
import { api } from '../../../lib/http.ts';

const paidAnswer = written(orderDetail);

/**
 * "Paid by transfer": the customer shows their bank app's receipt; the cashier types (or scans
 * with the till's barcode scanner) the transfer's reference, its short hash. The server asks
 * Bakong for that transfer with the amount due in this currency, into the store's account, and
 * refuses one that paid another sale already. A screenshot proves nothing: only Bakong's answer does.
 */
export function TransferClaim({
  order,
  currency,
  onPaid,
}: {
  order: OrderDetail;
  currency: KhqrCurrency;
  onPaid: (paid: OrderDetail, message: string) => void;
}) {
  const { t, locale } = useCtx();
  const [form] = Form.useForm<{ hash: string }>();
  const { problem, place, fail, edited } = useFormCheck(form, ['hash'], locale);
  const hash: string = Form.useWatch('hash', form) ?? '';
  const claim = useMutation({
    mutationFn: (reference: string) =>
      api(`orders/${order.id}/khqr/transfer`, {
        method: 'POST',
        body: { hash: reference, currency },
        schema: paidAnswer,
      }),
  });
  const typed = hash.trim().toLowerCase();
  const looksRight = BANK_HASH_PATTERN.test(typed);

  const submit = async () => {
    place({});
    try {
      const answer = await claim.mutateAsync(typed);
      onPaid(answer.data, answer.message);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      style={{ width: '100%' }}
      initialValues={{ hash: '' }}
      onValuesChange={edited}
      onFinish={() => void submit()}
      data-testid="transfer-claim"
    >
      <Form.Item label={t('khqr.transferLabel')} extra={t('khqr.transferHelp')}>
        <Flex gap={8}>
          {/* the hash's message shows on the labelled item around it */}
          <Form.Item name="hash" noStyle>
            <Input
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              placeholder="8465d722"
              aria-label={t('khqr.transferLabel')}
              data-testid="transfer-hash"
            />
          </Form.Item>
          <Button
            htmlType="submit"
            icon={<BankOutlined />}
            disabled={!looksRight}
            loading={claim.isPending}
            data-testid="transfer-check"
          >
            {t('khqr.transferCheck')}
          </Button>
        </Flex>
      </Form.Item>
      {problem && <Alert type="error" showIcon title={problem} data-testid="transfer-problem" />}
    </Form>
  );
}
