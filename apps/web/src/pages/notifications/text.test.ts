import { setNumerals } from '@depot/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n.ts';
import { notificationText } from './text.ts';

afterEach(() => setNumerals('latin'));

const low = {
  type: 'low_stock',
  data: {
    product_id: 7,
    product_name_en: 'Angkor beer 330 ml',
    product_name_kh: 'ស្រាបៀរអង្គរ',
    store_id: 1,
    store_name: 'Store 2',
    quantity: 3,
    reorder_level: 24,
  },
};

describe('a notification’s sentence', () => {
  it('writes its figures in the page’s numerals (Khmer numerals on): names stay as they are', () => {
    const kh = i18n.getFixedT('kh');
    setNumerals('khmer');
    const text = notificationText(low, kh, 'kh').text;
    expect(text).toContain('នៅសល់ ៣, កម្រិតបញ្ជាទិញបន្ថែម ២៤');
    expect(text).toContain('Store 2');
    setNumerals('latin');
    expect(notificationText(low, kh, 'kh').text).toContain('នៅសល់ 3, កម្រិតបញ្ជាទិញបន្ថែម 24');
  });
});
