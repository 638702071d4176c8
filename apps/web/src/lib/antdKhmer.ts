import { shownDigits } from '@depot/contracts';
import type { Locale as AntdLocale } from 'antd/es/locale/index.js';
import km_KH from 'antd/es/locale/km_KH.js';

/**
 * Ant Design's Khmer pack, mended in one place (docs/ARCHITECTURE.md, "Khmer"): it leaves English
 * in the pager ("Page Size"), the transfer ("items") and every form message, and has typos
 * (បញ្ចី, បិតបាំង, ជោកជ័យ, ចប់ផ្ដើម, ដួលរលំ for collapse). Words follow the glossary (contracts glossary.ts).
 */
const REQUIRED = 'ប្រអប់នេះត្រូវតែបំពេញ!';
const INVALID = 'តម្លៃមិនត្រឹមត្រូវ។';

const calendar = {
  weekPlaceholder: 'រើសសប្ដាហ៍',
  backToToday: 'ត្រឡប់ទៅថ្ងៃនេះ',
  ok: 'យល់ព្រម',
  timeSelect: 'ជ្រើសរើសម៉ោង',
  weekSelect: 'ជ្រើសរើសសប្ដាហ៍',
  clear: 'សម្អាត',
  week: 'សប្ដាហ៍',
  decadeSelect: 'ជ្រើសរើសទសវត្សរ៍',
  previousDecade: 'ទសវត្សរ៍មុន',
  nextDecade: 'ទសវត្សរ៍បន្ទាប់',
  previousCentury: 'សតវត្សរ៍មុន',
  nextCentury: 'សតវត្សរ៍បន្ទាប់',
  now: 'ឥឡូវនេះ',
};
const time = { placeholder: 'រើសម៉ោង', rangePlaceholder: ['ម៉ោងចាប់ផ្ដើម', 'ម៉ោងបញ្ចប់'] as [string, string] };

/** Every message of antd's own form validation in Khmer (Depot's forms validate with zod; these are a net). */
function khmerMessages(tree: unknown): unknown {
  if (typeof tree === 'string') return INVALID;
  if (tree && typeof tree === 'object') {
    return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, khmerMessages(value)]));
  }
  return tree;
}

function mend(base: AntdLocale): AntdLocale {
  const datePicker = base.DatePicker as NonNullable<AntdLocale['DatePicker']>;
  const calendarLocale = base.Calendar as NonNullable<AntdLocale['Calendar']>;
  return {
    ...base,
    Pagination: {
      ...base.Pagination,
      items_per_page: '/ ទំព័រ',
      jump_to: 'លោតទៅ',
      prev_page: 'ទំព័រមុន',
      next_page: 'ទំព័របន្ទាប់',
      page_size: 'ចំនួនក្នុងមួយទំព័រ',
      // digits typed in Latin and written in the page's numerals when the pager reads them
      get prev_5() {
        return shownDigits('ថយក្រោយ 5 ទំព័រ');
      },
      get next_5() {
        return shownDigits('ទៅមុខ 5 ទំព័រ');
      },
      get prev_3() {
        return shownDigits('ថយក្រោយ 3 ទំព័រ');
      },
      get next_3() {
        return shownDigits('ទៅមុខ 3 ទំព័រ');
      },
    },
    DatePicker: {
      ...datePicker,
      lang: { ...datePicker.lang, ...calendar },
      timePickerLocale: { ...datePicker.timePickerLocale, ...time },
    },
    Calendar: {
      ...calendarLocale,
      lang: { ...calendarLocale.lang, ...calendar },
      timePickerLocale: { ...calendarLocale.timePickerLocale, ...time },
    },
    TimePicker: { ...base.TimePicker, ...time },
    Table: {
      ...base.Table,
      filterTitle: 'ម៉ឺនុយតម្រង',
      filterEmptyText: 'គ្មានតម្រង',
      collapse: 'បង្រួម',
      filterCheckAll: 'ជ្រើសរើសធាតុទាំងអស់',
      triggerAsc: 'ចុចដើម្បីរៀបតាមលំដាប់តូច',
      selectNone: 'ដកការជ្រើសរើសទាំងអស់',
    },
    // the one Transfer moves people (a role's members): counted in នាក់, and menu items end without ។
    Transfer: {
      ...(base.Transfer as NonNullable<AntdLocale['Transfer']>),
      itemUnit: 'នាក់',
      itemsUnit: 'នាក់',
      selectAll: 'ជ្រើសរើសទាំងអស់',
      deselectAll: 'ដកការជ្រើសរើសទាំងអស់',
      removeAll: 'ដកចេញទាំងអស់',
      removeCurrent: 'ដកទំព័រនេះចេញ',
    },
    Upload: { ...base.Upload, uploadError: 'បញ្ចូលមិនជោគជ័យ' },
    Text: { ...base.Text, collapse: 'បង្រួម', copied: 'បានចម្លង' },
    global: { ...base.global, sortable: 'អាចតម្រៀបបាន' },
    Form: {
      ...base.Form,
      defaultValidateMessages: {
        ...(khmerMessages(base.Form?.defaultValidateMessages) as object),
        required: REQUIRED,
      },
    },
  };
}

export const antdKhmer: AntdLocale = mend(km_KH);
