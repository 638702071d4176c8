import { translate } from '@depot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

/** The message under a field: its antd Form.Item's. */
function messageOf(testId: string): string {
  const item = screen.getByTestId(testId).closest('.ant-form-item');
  // a message taken away may linger while it fades out: only a field marked in error has one
  if (!item?.classList.contains('ant-form-item-has-error')) return '';
  return item.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

describe('a new exchange rate', { timeout: 60_000 }, () => {
  it('asks for the rate in the browser, then shows the server’s refusal beside its field, in Khmer', async () => {
    const refusal = translate('validation.number_max', 'kh', { max: 4500 });
    const { calls } = mockFetch({
      'POST exchange-rates': { status: 422, body: { message: refusal, errors: { rate_in_khr: [refusal] } } },
    });
    signedIn({ permissions: ['exchange_rates.view', 'exchange_rates.update'] });
    const { user } = renderApp('/exchange-rates');
    await user.click(await screen.findByTestId('save-rate'));
    await waitFor(() => expect(messageOf('rate-khr')).toBe(translate('validation.required', 'kh')));
    expect(calls('POST exchange-rates')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('rate-khr'), { target: { value: '4100' } });
    fireEvent.change(screen.getByTestId('rate-in'), { target: { value: '4050' } });
    await user.click(screen.getByTestId('save-rate'));
    await waitFor(() => expect(calls('POST exchange-rates')).toHaveLength(1));
    expect(calls('POST exchange-rates')[0].body).toEqual({
      rate_khr: 4100,
      rate_in_khr: 4050,
      rate_out_khr: null,
      note: null,
    });
    await waitFor(() => expect(messageOf('rate-in')).toBe(refusal));
    expect(messageOf('rate-khr')).toBe('');
  });
});
