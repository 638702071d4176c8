/**
 * The agreed Khmer words (the team's KHMER.md, held here as data so the project needs nothing beside it): one word for one thing, one spelling for one word,
 * everywhere people read Depot (the web catalogue, the server's messages, receipts, invoices,
 * exports). apps/web/src/locales/glossary.test.ts reads every Khmer text of the code and fails on a word from `not`, and
 * on a glossary word written with the other of the two look-alike subscripts (្ដ / ្ត).
 */
export interface GlossaryTerm {
  en: string;
  /** The agreed words; each is written exactly so. */
  kh: readonly string[];
  /** What must not be written for it (a word that means something else here). */
  not?: readonly RegExp[];
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  { en: 'category', kh: ['ប្រភេទ'] },
  { en: 'discount type', kh: ['របៀបបញ្ចុះតម្លៃ'] },
  { en: 'combo, bundle', kh: ['ឈុត', 'ឈុតផលិតផល'], not: [/កញ្ចប់លក់/, /កញ្ចប់ទំនិញ/] },
  { en: 'return', kh: ['ត្រឡប់', 'ទទួលទំនិញត្រឡប់វិញ'], not: [/ប្[ដត]ូរវិញ/, /ប្[ដត]ូរយកត្រឡប់/] },
  { en: 'refund', kh: ['ប្រាក់សងវិញ'], not: [/ប្រាក់សងត្រឡប់/, /ប្រាក់សង(?!វិញ)/] },
  { en: 'payment', kh: ['ការបង់ប្រាក់'], not: [/ទូទាត់/] },
  // (ឥណពន្ធ, debit: a debit note; and the tax office's own name, អគ្គនាយកដ្ឋានពន្ធដារ, are other words)
  { en: 'VAT', kh: ['អាករ', 'អាករលើតម្លៃបន្ថែម'], not: [/(?<!ឥណ)ពន្ធ(?!ដារ)/] },
  { en: 'write-off', kh: ['កាត់ចេញពីស្តុក', 'ដកចេញដោយសារផុតកំណត់'], not: [/លុបចោល(?:ឡូត|ដោយផុតកំណត់)/] },
  { en: 'server, system', kh: ['ប្រព័ន្ធ'], not: [/ម៉ាស៊ីនមេ/] },
  { en: 'exchange rate', kh: ['អត្រាប្ដូរប្រាក់'] },
  { en: 'receipt', kh: ['បង្កាន់ដៃ'] },
  { en: 'invoice', kh: ['វិក្កយបត្រ', 'វិក្កយបត្រអាករ'], not: [/វិក័យបត្រ/, /វិក្ក័យបត្រ/] },
  { en: 'commercial invoice', kh: ['វិក្កយបត្រពាណិជ្ជកម្ម'] },
  { en: 'credit note', kh: ['កំណត់ត្រាឥណទាន'], not: [/លិខិតឥណទាន/] },
  { en: 'debit note', kh: ['កំណត់ត្រាឥណពន្ធ'], not: [/លិខិតឥណពន្ធ/] },
  { en: 'supplier', kh: ['អ្នកផ្គត់ផ្គង់'] },
  { en: 'change (money back)', kh: ['ប្រាក់អាប់'] },
  { en: 'walk-in customer', kh: ['អតិថិជនទូទៅ'] },
  { en: 'user', kh: ['អ្នកប្រើប្រាស់'], not: [/អ្នកប្រើ(?!ប្រាស់)/] },
  { en: 'system title', kh: ['ប្រព័ន្ធគ្រប់គ្រងការលក់'] },
  // the till and credit
  { en: 'sale, order at the till', kh: ['ការលក់', 'បញ្ជីលក់'], not: [/ការបញ្ជាទិញ/] },
  { en: 'shift', kh: ['វេន'], not: [/វេនការងារ/, /វេនលក់/] },
  {
    en: 'till',
    kh: ['កន្លែងគិតលុយ'],
    not: [/តុគិតលុយ/, /បញ្ជរគិតលុយ/, /កន្លែងគិតប្រាក់/, /ម៉ាស៊ីនលក់/, /ម៉ាស៊ីនគិតលុយ/, /ការលក់បើក/],
  },
  { en: 'cash drawer', kh: ['ថតប្រាក់'], not: [/ថតលុយ/, /ប្រអប់ប្រាក់/] },
  { en: 'float', kh: ['ប្រាក់ដើម'], not: [/ប្រាក់តំកល់/, /ប្រាក់មេ(?!ដឹក)/] },
  { en: 'pay-in', kh: ['ដាក់ប្រាក់ចូល'], not: [/បញ្ចូលប្រាក់ចូល/] },
  { en: 'pay-out', kh: ['ដកប្រាក់ចេញ'], not: [/បើកប្រាក់ចេញ/] },
  { en: 'cash over / short', kh: ['ប្រាក់លើស/ខ្វះ'], not: [/លម្អៀង/] },
  { en: 'credit limit', kh: ['កម្រិតឥណទាន'], not: [/ដែនកំណត់ឥណទាន/, /កម្រិតជំពាក់/] },
  { en: 'credit available', kh: ['ឥណទាននៅសល់'], not: [/នៅសល់អាចជំពាក់/] },
  { en: 'statement (of account)', kh: ['របាយការណ៍គណនី'], not: [/សេចក្ដីថ្លែងការណ៍គណនី/, /តារាងគណនី/] },
  // យឺត is for slow-moving stock (លក់យឺត), never for a debt past its day
  {
    en: 'overdue (ageing)',
    kh: ['ហួសថ្ងៃកំណត់', 'មិនទាន់ដល់ថ្ងៃកំណត់'],
    not: [/អាយុបំណុល/, /ហួសកាលកំណត់/, /(?<!លក់)យឺត/],
  },
  { en: 'receivables / payables', kh: ['បំណុលត្រូវទទួល', 'បំណុលត្រូវសង'] },
  { en: 'low stock', kh: ['ស្តុកជិតអស់'], not: [/ស្តុកទាប/] },
  { en: 'reorder level', kh: ['កម្រិតបញ្ជាទិញបន្ថែម'], not: [/បញ្ជាទិញឡើងវិញ/] },
  { en: 'lot, batch', kh: ['ឡូត'], not: [/ឡូត៍/] },
  { en: 'card (payment)', kh: ['កាតធនាគារ'], not: [/កាត(?![ធ់ា])/] },
  { en: 'cheque', kh: ['មូលប្បទានបត្រ'], not: [/មូលប្បទានប័ត្រ/] },
  { en: 'bank transfer (payment)', kh: ['ការផ្ទេរប្រាក់'] },
  { en: 'scan', kh: ['ស្កេន'], not: [/ស្កែន/, /ការបង់តាម KHQR/] },
  { en: 'give (ឲ្យ / ឱ្យ)', kh: ['ឱ្យ'], not: [/ឲ្យ/] },
  { en: 'position (job title)', kh: ['មុខតំណែង'], not: [/តួនាទីការងារ/] },
  { en: 'join date', kh: ['ថ្ងៃចូលបម្រើការងារ'], not: [/ថ្ងៃចូលធ្វើការ/] },
  { en: 'cash received from the customer', kh: ['ប្រាក់ទទួលពីអតិថិជន'], not: [/ប្រគល់/] },
  { en: 'not synced yet', kh: ['មិនទាន់បានផ្ញើទៅប្រព័ន្ធ'], not: [/សមកាលកម្ម/] },
  { en: 'out of date (a rate)', kh: ['ហួសពេល'], not: [/ហួសសម័យ/] },
  { en: 'contrast (colours)', kh: ['កម្រិតផ្ទុយពណ៌'], not: [/កម្រិតពន្លឺប្រៀបធៀប/] },
  { en: '"N of M" in lists', kh: ['ក្នុងចំណោម'], not: [/}} នៃ /] },
  { en: 'loading', kh: ['កំពុងផ្ទុក'], not: [/កំពុងអាន/] },
  { en: 'riel rounding step', kh: ['កម្រិតបង្គត់រៀល'], not: [/ជំហានរៀល/] },
  { en: 'province / district / commune', kh: ['ខេត្ត/រាជធានី', 'ស្រុក/ខណ្ឌ', 'ឃុំ/សង្កាត់'] },
  { en: 'shipped', kh: ['បានបញ្ជូនចេញ'], not: [/បានដឹកដល់/, /បានដឹកជញ្ជូន/] },
  { en: 'void a sale', kh: ['បោះបង់ការលក់'], not: [/លុបចោលការលក់/] },
  { en: 'payment method', kh: ['វិធីបង់ប្រាក់'], not: [/វិធីសាស្ត្រ/] },
  { en: 'yes (a guide’s required column)', kh: ['ចាំបាច់'] },
  // words written two ways before: the dictionary's subscript, and stock as the depots write it
  { en: 'change, exchange', kh: ['ប្ដូរ'] },
  { en: 'once, again', kh: ['ម្ដង'] },
  { en: '(noun prefix)', kh: ['សេចក្ដី'] },
  { en: 'stock', kh: ['ស្តុក'] },
  { en: 'restore', kh: ['ស្ដារ'] },
  { en: 'week', kh: ['សប្ដាហ៍'] },
  { en: 'start', kh: ['ចាប់ផ្ដើម'] },
  { en: 'give', kh: ['ផ្ដល់'] },
  { en: 'network', kh: ['បណ្ដាញ'] },
  { en: 'coverage', kh: ['គ្របដណ្ដប់'] },
  { en: 'continue', kh: ['បន្ត'] },
];

const DA = '\u17D2\u178A'; // ្ដ
const TA = '\u17D2\u178F'; // ្ត

/** The same word with the other look-alike subscript (្ដ ↔ ្ត): what people also type. */
export function otherSpelling(word: string): string {
  return word.replaceAll(DA, '\u0000').replaceAll(TA, DA).replaceAll('\u0000', TA);
}

/** One form for matching: people type ្ដ and ្ត for the same word, so search treats them alike. */
export function oneSubscript(text: string): string {
  return text.replaceAll(TA, DA);
}
