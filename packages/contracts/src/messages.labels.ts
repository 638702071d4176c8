/** The server's messages of barcode labels and shelf tags (issue 28), spread into messages.ts. */
export const labelMessages = {
  'label.too_many': {
    en: 'Too many labels for one print: print them in several parts.',
    kh: 'ស្លាកច្រើនពេកសម្រាប់ការបោះពុម្ពម្ដង៖ សូមបោះពុម្ពជាច្រើនដង។',
  },
  'label.skip_too_many': {
    en: 'A sheet of this layout has only {cells} labels.',
    kh: 'សន្លឹកប្លង់នេះមានស្លាកតែ {cells} ប៉ុណ្ណោះ។',
  },
  'label.product_missing': {
    en: 'A product in the list does not exist or was deleted.',
    kh: 'ផលិតផលមួយក្នុងបញ្ជីមិនមាន ឬត្រូវបានលុបហើយ។',
  },
  'label.no_barcode': {
    en: '“{name}” has no barcode yet: someone who may edit products must print its first label.',
    kh: '«{name}» មិនទាន់មានបាកូដនៅឡើយ៖ អ្នកដែលអាចកែផលិតផលត្រូវបោះពុម្ពស្លាកដំបូងរបស់វា។',
  },
  'label.pdf_unavailable': {
    en: 'PDF is not available: Chromium is not installed on the server. Print the labels on a label printer instead.',
    kh: 'មិនអាចបង្កើត PDF បានទេ៖ ប្រព័ន្ធមិនមាន Chromium។ សូមបោះពុម្ពស្លាកលើម៉ាស៊ីនបោះពុម្ពស្លាកជំនួសវិញ។',
  },
  'label.printed': { en: '{count} labels sent to {name}.', kh: 'បានផ្ញើស្លាក {count} ទៅ {name}។' },
  'label.settings_saved': { en: 'Label sheets saved.', kh: 'បានរក្សាទុកសន្លឹកស្លាក។' },
} as const;
