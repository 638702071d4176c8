import type { Locale } from './locales.ts';

/** The server's messages of tax documents and published rates (issue 27), spread into messages.ts. */
export const taxMessages = {
  'entity.tax_document': { en: 'Tax document', kh: 'ឯកសារអាករ' },
  'tax.kind.tax_invoice': { en: 'Tax invoice', kh: 'វិក្កយបត្រអាករ' },
  'tax.kind.commercial_invoice': { en: 'Commercial invoice', kh: 'វិក្កយបត្រពាណិជ្ជកម្ម' },
  'tax.kind.credit_note': { en: 'Credit note', kh: 'កំណត់ត្រាឥណទាន' },
  'tax.kind.debit_note': { en: 'Debit note', kh: 'កំណត់ត្រាឥណពន្ធ' },
  'tax.issued': { en: '{kind} {number} issued.', kh: 'បានចេញ{kind} {number}។' },
  'tax.missing.seller_tin': {
    en: 'The seller’s VAT number (TIN) is missing: enter it in Settings before issuing a tax invoice.',
    kh: 'ខ្វះលេខអត្តសញ្ញាណកម្ម អតប របស់អ្នកលក់៖ សូមបញ្ចូលក្នុងការកំណត់ មុនចេញវិក្កយបត្រអាករ។',
  },
  'tax.missing.seller_address': {
    en: 'The seller’s address is missing: enter it in Settings or on the store.',
    kh: 'ខ្វះអាសយដ្ឋានរបស់អ្នកលក់៖ សូមបញ្ចូលក្នុងការកំណត់ ឬលើហាង។',
  },
  'tax.missing.buyer_tin': {
    en: 'The buyer’s VAT number (TIN) is missing: a tax invoice is for a VAT-registered buyer.',
    kh: 'ខ្វះលេខអត្តសញ្ញាណកម្ម អតប របស់អ្នកទិញ៖ វិក្កយបត្រអាករសម្រាប់អ្នកទិញដែលបានចុះបញ្ជី អតប។',
  },
  'tax.missing.buyer_name': {
    en: 'The buyer’s name is missing: a tax invoice names a registered customer, not the walk-in customer.',
    kh: 'ខ្វះឈ្មោះអ្នកទិញ៖ វិក្កយបត្រអាករដាក់ឈ្មោះអតិថិជនដែលបានចុះបញ្ជី មិនមែនអតិថិជនទូទៅទេ។',
  },
  'tax.missing.buyer_address': {
    en: 'The buyer’s address is missing: enter it on the customer.',
    kh: 'ខ្វះអាសយដ្ឋានរបស់អ្នកទិញ៖ សូមបញ្ចូលលើអតិថិជន។',
  },
  'tax.missing.gdt_rate': {
    en: 'The tax office’s exchange rate of {month} is not entered yet: enter it under Exchange rates.',
    kh: 'មិនទាន់បញ្ចូលអត្រាប្ដូរប្រាក់របស់អគ្គនាយកដ្ឋានពន្ធដារសម្រាប់ខែ {month} ទេ៖ សូមបញ្ចូលនៅអត្រាប្ដូរប្រាក់។',
  },
  'tax.missing.nbc_rate': {
    en: 'No National Bank rate of the last 7 days before {date}: enter it under Exchange rates, or let the feed fetch it.',
    kh: 'គ្មានអត្រាប្ដូរប្រាក់របស់ធនាគារជាតិក្នុង 7 ថ្ងៃចុងក្រោយមុន {date} ទេ៖ សូមបញ្ចូលនៅអត្រាប្ដូរប្រាក់ ឬឱ្យប្រព័ន្ធទាញយក។',
  },
  'tax.already_issued': {
    en: 'This sale already has its invoice {number}.',
    kh: 'ការលក់នេះមានវិក្កយបត្រ {number} រួចហើយ។',
  },
  'tax.not_sold': {
    en: 'Order {number} is not a sale (held or voided): it has no invoice.',
    kh: 'បញ្ជីលក់ {number} មិនមែនជាការលក់ទេ (រង់ចាំ ឬបានបោះបង់)៖ គ្មានវិក្កយបត្រទេ។',
  },
  'tax.not_invoice': {
    en: 'A debit note corrects an invoice, not a note.',
    kh: 'កំណត់ត្រាឥណពន្ធកែវិក្កយបត្រ មិនមែនកំណត់ត្រាទេ។',
  },
  'tax.category_rate': {
    en: 'A standard-rated line needs VAT above 0 % in the sale settings.',
    kh: 'បន្ទាត់អត្រាស្តង់ដារត្រូវការអាករលើសពី 0 % ក្នុងការកំណត់ការលក់។',
  },
  'rate.official_saved': { en: 'Rate saved: 1 $ = {rate} ៛.', kh: 'បានរក្សាទុកអត្រា៖ 1 $ = {rate} ៛។' },
  'rate.feed_off': {
    en: 'No rate feed is configured (DEPOT_RATE_FEED_URL).',
    kh: 'មិនទាន់កំណត់ប្រភពអត្រាប្ដូរប្រាក់ (DEPOT_RATE_FEED_URL) ទេ។',
  },
  'rate.feed_failed': {
    en: 'The rate feed did not answer with a dollar rate: try again later, or enter the rate by hand.',
    kh: 'ប្រភពអត្រាប្ដូរប្រាក់មិនបានឆ្លើយនូវអត្រាដុល្លារទេ៖ សូមព្យាយាមម្ដងទៀតពេលក្រោយ ឬបញ្ចូលអត្រាដោយដៃ។',
  },
  'rate.feed_fetched': {
    en: 'National Bank rate of {date}: 1 $ = {rate} ៛.',
    kh: 'អត្រាធនាគារជាតិថ្ងៃ {date}៖ 1 $ = {rate} ៛។',
  },
} as const satisfies Record<string, Record<Locale, string>>;
