import { formatKhr, formatUsd } from './format.ts';
import type { Locale } from './locales.ts';
import { labelMessages } from './messages.labels.ts';
import { taxMessages } from './messages.tax.ts';
import { currentNumerals, type Numerals, shownDigits } from './numerals.ts';

/**
 * Messages that both the server and the web app show: validation messages and the server's
 * answers. Khmer and English side by side, so a missing translation is visible in review and
 * caught by the catalogue test.
 */
export const messages = {
  // validation (spec section 5)
  'validation.required': { en: 'This field is required!', kh: 'ប្រអប់នេះត្រូវតែបំពេញ!' },
  'validation.string_min': { en: 'Must be at least {min} characters.', kh: 'ត្រូវមានយ៉ាងហោចណាស់ {min} តួអក្សរ។' },
  'validation.string_max': { en: 'Must be at most {max} characters.', kh: 'មិនត្រូវលើសពី {max} តួអក្សរ។' },
  'validation.number_min': { en: 'Must be at least {min}.', kh: 'ត្រូវមានតម្លៃយ៉ាងហោចណាស់ {min}។' },
  'validation.number_max': { en: 'Must be at most {max}.', kh: 'មិនត្រូវលើសពី {max}។' },
  'validation.array_min': { en: 'Choose at least {min}.', kh: 'សូមជ្រើសរើសយ៉ាងហោចណាស់ {min}។' },
  'validation.email': { en: 'Enter a valid email address.', kh: 'សូមបញ្ចូលអាសយដ្ឋានអ៊ីមែលដែលត្រឹមត្រូវ។' },
  'validation.format': { en: 'The format is not valid.', kh: 'ទម្រង់មិនត្រឹមត្រូវ។' },
  'validation.type': { en: 'The value is not valid.', kh: 'តម្លៃមិនត្រឹមត្រូវ។' },
  'validation.choice': { en: 'Choose one of the allowed values.', kh: 'សូមជ្រើសរើសតម្លៃណាមួយដែលអនុញ្ញាត។' },
  'validation.password_mismatch': {
    en: 'The password confirmation does not match.',
    kh: 'ការបញ្ជាក់ពាក្យសម្ងាត់មិនត្រូវគ្នា។',
  },
  'validation.unique': { en: 'This value is already used.', kh: 'តម្លៃនេះត្រូវបានប្រើរួចហើយ។' },
  'validation.exists': {
    en: 'The selected record does not exist.',
    kh: 'កំណត់ត្រាដែលបានជ្រើសរើសមិនមានទេ។',
  },
  'validation.sort': { en: 'This column cannot be sorted.', kh: 'មិនអាចតម្រៀបតាមជួរនេះបានទេ។' },
  'validation.unit_factor': {
    en: 'A base unit counts 1; a unit made of a base unit counts at least 2 of it.',
    kh: 'ឯកតាមូលដ្ឋានមានចំនួន 1។ ឯកតាដែលផ្សំពីឯកតាមូលដ្ឋានត្រូវមានយ៉ាងហោចណាស់ 2។',
  },
  'validation.unit_decimals': {
    en: 'Only a base unit has decimals; a unit made of it is sold whole.',
    kh: 'មានតែឯកតាមូលដ្ឋានទេដែលមានខ្ទង់ទសភាគ។ ឯកតាដែលផ្សំពីវាត្រូវលក់ជាចំនួនគត់។',
  },
  'validation.unit_decimals_used': {
    en: 'Products are counted in this unit: its decimals cannot change.',
    kh: 'ទំនិញកំពុងរាប់ជាឯកតានេះ៖ មិនអាចប្ដូរខ្ទង់ទសភាគរបស់វាបានទេ។',
  },
  'validation.scale_prefix': {
    en: 'A scale barcode prefix is 20 to 29.',
    kh: 'បុព្វបទបាកូដជញ្ជីងគឺពី 20 ដល់ 29។',
  },
  'validation.scale_lengths': {
    en: 'The code and the value together take 10 digits.',
    kh: 'លេខកូដ និងតម្លៃរួមគ្នាត្រូវមាន 10 ខ្ទង់។',
  },
  'settings.scale_saved': { en: 'Scale barcode layouts saved.', kh: 'បានរក្សាទុកទម្រង់បាកូដជញ្ជីង។' },
  'validation.base_unit': {
    en: 'Choose a base unit: one that is not itself made of another unit.',
    kh: 'សូមជ្រើសរើសឯកតាមូលដ្ឋាន៖ ឯកតាដែលមិនផ្សំពីឯកតាផ្សេង។',
  },
  'validation.barcode': {
    en: 'This barcode’s check digit is wrong: check the number.',
    kh: 'លេខត្រួតពិនិត្យនៃបាកូដនេះមិនត្រឹមត្រូវ៖ សូមពិនិត្យលេខម្ដងទៀត។',
  },
  'validation.sub_category': {
    en: 'This sub-category belongs to another category.',
    kh: 'ប្រភេទរងនេះជារបស់ប្រភេទផ្សេង។',
  },
  'validation.image_type': {
    en: 'Choose a JPEG, PNG or WebP picture.',
    kh: 'សូមជ្រើសរើសរូបភាព JPEG, PNG ឬ WebP។',
  },
  'validation.image_size': {
    en: 'The picture is larger than {mb} MB.',
    kh: 'រូបភាពធំជាង {mb} MB។',
  },
  'validation.characters': {
    en: 'The text contains characters that are not allowed.',
    kh: 'អត្ថបទមានតួអក្សរដែលមិនអនុញ្ញាត។',
  },
  'validation.upload': {
    en: 'The upload could not be read. Choose the file again.',
    kh: 'មិនអាចអានឯកសារដែលបានផ្ទុកឡើងបានទេ។ សូមជ្រើសរើសឯកសារម្ដងទៀត។',
  },
  'validation.failed': { en: 'The given data was invalid.', kh: 'ទិន្នន័យដែលបានផ្ដល់មិនត្រឹមត្រូវ។' },

  // spreadsheet import and export (products): file errors, row errors, the summary, the Guide sheet
  'price_import.done': {
    en: 'Prices imported: {total} ({created} created, {updated} updated).',
    kh: 'បាននាំចូលតម្លៃ {total} (បង្កើតថ្មី {created} និងកែប្រែ {updated})។',
  },
  'price_import.guide.intro': {
    en: 'Row 1 holds the column names, in any order. A row for a list, a product and unit (or a category) and a quantity that already has a price updates it; the others add prices. If any row is wrong, nothing is imported and every mistake is listed.',
    kh: 'ជួរទី 1 ជាឈ្មោះជួរឈរ តាមលំដាប់ណាក៏បាន។ ជួរសម្រាប់បញ្ជី ផលិតផល និងឯកតា (ឬប្រភេទ) និងបរិមាណ ដែលមានតម្លៃរួចហើយ នឹងកែប្រែវា ហើយជួរផ្សេងទៀតនឹងបន្ថែមតម្លៃថ្មី។ ប្រសិនបើមានជួរណាមួយខុស គ្មានអ្វីត្រូវបាននាំចូលទេ ហើយកំហុសនីមួយៗនឹងត្រូវបានបង្ហាញ។',
  },
  'price_import.guide.list': {
    en: "The customer group's name (English or Khmer); empty: the base list, for every customer.",
    kh: 'ឈ្មោះក្រុមអតិថិជន (អង់គ្លេស ឬខ្មែរ)។ ទុកទទេ៖ បញ្ជីមូលដ្ឋាន សម្រាប់អតិថិជនទាំងអស់។',
  },
  'price_import.guide.scope': {
    en: 'product (a product in one unit) or category (a quantity break on a category, a percentage off).',
    kh: 'product (ផលិតផលក្នុងឯកតាមួយ) ឬ category (តម្លៃតាមបរិមាណលើប្រភេទ ជាភាគរយបញ្ចុះ)។',
  },
  'price_import.guide.sku': { en: "The product's SKU (product rows).", kh: 'SKU របស់ផលិតផល (សម្រាប់ជួរផលិតផល)។' },
  'price_import.guide.unit': {
    en: "The unit sold (English, Khmer or short name): the product's own, or one made of it.",
    kh: 'ឯកតាដែលលក់ (ឈ្មោះអង់គ្លេស ខ្មែរ ឬឈ្មោះខ្លី)៖ ឯកតាផ្ទាល់របស់ផលិតផល ឬឯកតាដែលផ្សំពីវា។',
  },
  'price_import.guide.category': { en: "The category's name (category rows).", kh: 'ឈ្មោះប្រភេទ (សម្រាប់ជួរប្រភេទ)។' },
  'price_import.guide.min_quantity': {
    en: 'From this quantity (1: the unit price; more: a quantity break).',
    kh: 'ចាប់ពីបរិមាណនេះ (1៖ តម្លៃឯកតា។ ច្រើនជាងនេះ៖ តម្លៃតាមបរិមាណ)។',
  },
  'price_import.guide.price_usd': { en: 'The unit price in dollars, e.g. 24.00.', kh: 'តម្លៃឯកតាជាដុល្លារ ឧ. 24.00។' },
  'price_import.guide.price_khr': {
    en: 'An optional riel price (a label: sales are charged in dollars).',
    kh: 'តម្លៃជារៀល (មិនចាំបាច់៖ ជាស្លាក ការលក់គិតជាដុល្លារ)។',
  },
  'price_import.guide.percent_off': {
    en: 'A category break: the percentage off the list price, e.g. 5.',
    kh: 'តម្លៃតាមបរិមាណលើប្រភេទ៖ ភាគរយបញ្ចុះពីតម្លៃបញ្ជី ឧ. 5។',
  },
  'price_import.guide.status': { en: 'active or inactive (default active).', kh: 'active ឬ inactive (លំនាំដើម active)។' },
  'import.done': {
    en: 'Products imported: {total} ({created} created, {updated} updated).',
    kh: 'បាននាំចូលផលិតផល {total} (បង្កើតថ្មី {created} និងកែប្រែ {updated})។',
  },
  'import.failed': {
    en: 'Nothing was imported. Rows with mistakes: {rows}; mistakes: {count}.',
    kh: 'គ្មានអ្វីត្រូវបាននាំចូលទេ។ ជួរដែលមានកំហុស៖ {rows}។ កំហុសសរុប៖ {count}។',
  },
  'import.truncated': { en: 'Only the first {shown} are listed.', kh: 'បង្ហាញតែ {shown} ដំបូងប៉ុណ្ណោះ។' },
  'import.file_type': {
    en: 'Choose an Excel workbook (.xlsx) or a CSV file.',
    kh: 'សូមជ្រើសរើសឯកសារ Excel (.xlsx) ឬឯកសារ CSV។',
  },
  'import.file_size': { en: 'The file is larger than {mb} MB.', kh: 'ឯកសារធំជាង {mb} MB។' },
  'import.unpacked_size': {
    en: 'This workbook unpacks to more than {mb} MB: split it into several files.',
    kh: 'ឯកសារ Excel នេះពន្លាចេញធំជាង {mb} MB៖ សូមបំបែកវាជាឯកសារច្រើន។',
  },
  'import.too_many_rows': {
    en: 'The file has {count} rows; at most {max} can be imported at once. Split it into several files.',
    kh: 'ឯកសារមាន {count} ជួរ ប៉ុន្តែអាចនាំចូលបានយ៉ាងច្រើន {max} ជួរក្នុងមួយលើក។ សូមបំបែកវាជាឯកសារច្រើន។',
  },
  'import.empty': { en: 'The file has no rows to import.', kh: 'ឯកសារនេះគ្មានជួរដែលត្រូវនាំចូលទេ។' },
  'import.unknown_column': {
    en: 'Unknown column "{column}". The columns are: {columns}.',
    kh: 'មិនស្គាល់ជួរឈរ «{column}» ទេ។ ជួរឈរដែលអាចប្រើបានគឺ៖ {columns}។',
  },
  'import.missing_column': { en: 'The column "{column}" is missing.', kh: 'ខ្វះជួរឈរ «{column}»។' },
  'import.duplicate_column': { en: 'The column "{column}" appears twice.', kh: 'ជួរឈរ «{column}» មានពីរដង។' },
  'import.duplicate_in_file': {
    en: 'The same value is already in row {row} of this file.',
    kh: 'តម្លៃដូចគ្នានេះមាននៅជួរទី {row} នៃឯកសារនេះរួចហើយ។',
  },
  'import.not_found': { en: '{entity} "{name}" does not exist.', kh: '{entity} «{name}» មិនមានទេ។' },
  'import.ambiguous': {
    en: '{entity} "{name}" matches several records: write its English name.',
    kh: '{entity} «{name}» ត្រូវនឹងកំណត់ត្រាច្រើន៖ សូមសរសេរឈ្មោះជាភាសាអង់គ្លេស។',
  },
  'import.update_forbidden': {
    en: 'A product with this SKU already exists, and you may not edit products.',
    kh: 'ផលិតផលដែលមាន SKU នេះមានរួចហើយ ហើយអ្នកមិនមានសិទ្ធិកែប្រែផលិតផលទេ។',
  },
  'import.yes_no': { en: 'Write yes or no.', kh: 'សូមសរសេរ yes ឬ no។' },
  'import.sheet.products': { en: 'Products', kh: 'ផលិតផល' },
  'import.sheet.prices': { en: 'Prices', kh: 'តម្លៃ' },
  'import.sheet.guide': { en: 'Guide', kh: 'ការណែនាំ' },
  'import.guide.column': { en: 'column', kh: 'ជួរឈរ' },
  'import.guide.required': { en: 'required', kh: 'ចាំបាច់' },
  'import.guide.yes': { en: 'yes', kh: 'ចាំបាច់' },
  'import.guide.intro': {
    en: 'Row 1 of the first sheet holds the column names, in any order; the required ones must be there. A row whose SKU already exists updates that product; the others add products. A column left out keeps each product’s current value; an empty cell empties it or takes its default. If any row is wrong, nothing is imported and every mistake is listed.',
    kh: 'ជួរទី 1 នៃសន្លឹកទីមួយ ជាឈ្មោះជួរឈរ តាមលំដាប់ណាក៏បាន ប៉ុន្តែត្រូវមានជួរឈរចាំបាច់។ ជួរដែលមាន SKU រួចហើយ នឹងកែប្រែផលិតផលនោះ ហើយជួរផ្សេងទៀតនឹងបន្ថែមផលិតផលថ្មី។ ជួរឈរដែលគ្មានក្នុងឯកសារ រក្សាតម្លៃដដែលរបស់ផលិតផល ឯក្រឡាទទេ នឹងលុបតម្លៃ ឬប្រើតម្លៃលំនាំដើម។ ប្រសិនបើមានជួរណាមួយខុស គ្មានអ្វីត្រូវបាននាំចូលទេ ហើយកំហុសនីមួយៗនឹងត្រូវបានបង្ហាញ។',
  },
  'import.guide.sku': {
    en: 'Stock code: letters, digits, dot, dash or underscore, up to 40 characters. A row whose SKU already exists updates that product.',
    kh: 'លេខកូដទំនិញ (SKU)៖ អក្សរ លេខ ចុច សញ្ញាដក ឬសញ្ញាគូសក្រោម មិនលើស 40 តួ។ ជួរដែលមាន SKU រួចហើយ នឹងកែប្រែផលិតផលនោះ។',
  },
  'import.guide.barcode': {
    en: 'Barcode, up to 50 characters; an EAN or UPC number must end with its correct check digit. May be empty.',
    kh: 'បាកូដ មិនលើស 50 តួ។ លេខ EAN ឬ UPC ត្រូវមានលេខត្រួតពិនិត្យត្រឹមត្រូវនៅខាងចុង។ អាចទុកទទេបាន។',
  },
  'import.guide.name_kh': { en: 'Name in Khmer, 3 to 50 characters.', kh: 'ឈ្មោះជាភាសាខ្មែរ ពី 3 ដល់ 50 តួអក្សរ។' },
  'import.guide.name_en': { en: 'Name in English, 3 to 50 characters.', kh: 'ឈ្មោះជាភាសាអង់គ្លេស ពី 3 ដល់ 50 តួអក្សរ។' },
  'import.guide.short_name': {
    en: 'Short name for receipts, up to 30 characters. May be empty.',
    kh: 'ឈ្មោះខ្លីសម្រាប់បង្កាន់ដៃ មិនលើស 30 តួអក្សរ។ អាចទុកទទេបាន។',
  },
  'import.guide.brand': {
    en: 'Brand name, as in the list of brands. May be empty.',
    kh: 'ឈ្មោះម៉ាក ដូចក្នុងបញ្ជីម៉ាក។ អាចទុកទទេបាន។',
  },
  'import.guide.category': {
    en: 'Category: its English or Khmer name, as in the list of categories.',
    kh: 'ប្រភេទ៖ ឈ្មោះជាភាសាអង់គ្លេស ឬខ្មែរ ដូចក្នុងបញ្ជីប្រភេទ។',
  },
  'import.guide.sub_category': {
    en: 'Sub-category of that category: its English or Khmer name. May be empty.',
    kh: 'ប្រភេទរងនៃប្រភេទខាងលើ៖ ឈ្មោះជាភាសាអង់គ្លេស ឬខ្មែរ។ អាចទុកទទេបាន។',
  },
  'import.guide.unit': {
    en: 'Unit: its English or Khmer name or its short name (such as "can"). It must be a base unit, not one made of another unit.',
    kh: 'ឯកតា៖ ឈ្មោះជាភាសាអង់គ្លេស ឬខ្មែរ ឬឈ្មោះខ្លី (ដូចជា «can»)។ ត្រូវជាឯកតាមូលដ្ឋាន មិនមែនឯកតាដែលផ្សំពីឯកតាផ្សេងទេ។',
  },
  'import.guide.price_usd': {
    en: 'Selling price in US dollars, with at most two decimals: 1.26.',
    kh: 'តម្លៃលក់ជាដុល្លារអាមេរិក មានខ្ទង់ទសភាគយ៉ាងច្រើនពីរ៖ 1.26។',
  },
  'import.guide.price_khr': {
    en: 'The product’s own riel price for its labels, in whole riel. A sale is in dollars: the till takes riel at the exchange rate. Leave it empty for none.',
    kh: 'តម្លៃជារៀលផ្ទាល់របស់ផលិតផល សម្រាប់ស្លាកតម្លៃ (ចំនួនគត់)។ ការលក់គិតជាដុល្លារ៖ កន្លែងគិតលុយទទួលប្រាក់រៀលតាមអត្រាប្ដូរប្រាក់។ ទុកទទេ ប្រសិនបើគ្មាន។',
  },
  'import.guide.cost_usd': {
    en: 'Cost in US dollars: 0.90. Empty means 0.',
    kh: 'ថ្លៃដើមជាដុល្លារអាមេរិក៖ 0.90។ ទុកទទេ ស្មើនឹង 0។',
  },
  'import.guide.taxable': {
    en: 'yes or no: whether tax applies. Empty means yes.',
    kh: 'yes ឬ no៖ ជាប់អាករ ឬមិនជាប់អាករ។ ទុកទទេ ស្មើនឹង yes។',
  },
  'import.guide.expiry_date': {
    en: 'Expiry date as YYYY-MM-DD: 2026-12-31. May be empty.',
    kh: 'ថ្ងៃផុតកំណត់ ជាទម្រង់ YYYY-MM-DD៖ 2026-12-31។ អាចទុកទទេបាន។',
  },
  'import.guide.reorder_level': {
    en: 'Stock level (whole number) at which to order more. Empty means 0.',
    kh: 'កម្រិតស្តុក (ចំនួនគត់) ដែលត្រូវបញ្ជាទិញបន្ថែម។ ទុកទទេ ស្មើនឹង 0។',
  },
  'import.guide.status': {
    en: 'active or inactive. Empty means active.',
    kh: 'active (សកម្ម) ឬ inactive (អសកម្ម)។ ទុកទទេ ស្មើនឹង active។',
  },

  // stock, transfers and purchases (spec section 8: "Not enough stock for the product")
  'stock.not_enough': {
    en: 'Not enough stock for the product “{product}”.',
    kh: 'មិនមានស្តុកគ្រប់គ្រាន់សម្រាប់ផលិតផល «{product}» ទេ។',
  },
  'stock.batch_required': {
    en: 'This product has several batches in this store: choose one.',
    kh: 'ផលិតផលនេះមានច្រើនឡូតក្នុងហាងនេះ៖ សូមជ្រើសរើសមួយ។',
  },
  'stock.unit_of_product': {
    en: 'Choose the product’s own unit or one made of it.',
    kh: 'សូមជ្រើសរើសឯកតារបស់ផលិតផល ឬឯកតាដែលផ្សំពីវា។',
  },
  'stock.nothing_changed': {
    en: 'The count is what the store already holds: nothing to adjust.',
    kh: 'ចំនួនដែលរាប់ស្មើនឹងស្តុកដែលមានរួចហើយ៖ គ្មានអ្វីត្រូវកែតម្រូវទេ។',
  },
  'stock.adjusted': { en: 'Stock adjusted.', kh: 'បានកែតម្រូវស្តុកដោយជោគជ័យ។' },
  'stock.not_expired': { en: 'This batch has not expired.', kh: 'ឡូតនេះមិនទាន់ផុតកំណត់ទេ។' },
  'stock.nothing_to_write_off': {
    en: 'This batch has no stock in this store.',
    kh: 'ឡូតនេះគ្មានស្តុកក្នុងហាងនេះទេ។',
  },
  'stock.written_off': { en: 'Expired batch written off.', kh: 'បានកាត់ឡូតផុតកំណត់ចេញពីស្តុក។' },
  'validation.same_store': {
    en: 'Choose another store than the one it leaves.',
    kh: 'សូមជ្រើសរើសហាងផ្សេងពីហាងដែលវាចេញ។',
  },
  'validation.store_inactive': { en: 'This store is not active.', kh: 'ហាងនេះមិនសកម្មទេ។' },
  'transfer.state': {
    en: 'Transfer {number} is {status}: it cannot be {action}.',
    kh: 'ការផ្ទេរ {number} ស្ថិតក្នុងស្ថានភាព {status}៖ មិនអាច{action}បានទេ។',
  },
  'transfer.sent': { en: 'Transfer sent: the stock has left the store.', kh: 'បានផ្ញើការផ្ទេរ៖ ស្តុកបានចេញពីហាងហើយ។' },
  'transfer.received': { en: 'Transfer received: the stock is in the store.', kh: 'បានទទួលការផ្ទេរ៖ ស្តុកបានចូលហាងហើយ។' },
  'transfer.cancelled': { en: 'Transfer cancelled.', kh: 'បានបោះបង់ការផ្ទេរ។' },
  'purchase.state': {
    en: 'Purchase {number} is {status}: it cannot be {action}.',
    kh: 'ការទិញ {number} ស្ថិតក្នុងស្ថានភាព {status}៖ មិនអាច{action}បានទេ។',
  },
  'purchase.over_received': {
    en: 'More than is still due on this line ({due}).',
    kh: 'លើសពីចំនួនដែលនៅសល់ត្រូវទទួលលើជួរនេះ ({due})។',
  },
  'purchase.not_item': { en: 'This line is not on this purchase.', kh: 'ជួរនេះមិនមែនជារបស់ការទិញនេះទេ។' },
  'purchase.over_paid': {
    en: 'More than is still due ({due}).',
    kh: 'លើសពីចំនួនដែលនៅជំពាក់ ({due})។',
  },
  'purchase.received': { en: 'Goods received into stock.', kh: 'បានទទួលទំនិញចូលស្តុក។' },
  // sample data (/samples, samples:load, samples:remove)
  'samples.loaded': {
    en: 'Sample data loaded: {products} products, {purchases} purchases and {orders} sales.',
    kh: 'បានផ្ទុកទិន្នន័យគំរូ៖ ផលិតផល {products}, ការទិញ {purchases} និងការលក់ {orders}។',
  },
  'samples.already_loaded': {
    en: 'The sample data is already loaded: nothing was added.',
    kh: 'ទិន្នន័យគំរូត្រូវបានផ្ទុករួចហើយ៖ មិនបានបន្ថែមអ្វីទេ។',
  },
  'samples.busy': {
    en: 'The sample data is being loaded or removed right now. Try again in a moment.',
    kh: 'ទិន្នន័យគំរូកំពុងត្រូវបានផ្ទុក ឬលុប។ សូមព្យាយាមម្ដងទៀតបន្តិចក្រោយ។',
  },
  'samples.removed': { en: 'Sample data removed.', kh: 'បានលុបទិន្នន័យគំរូដោយជោគជ័យ។' },
  'samples.none': { en: 'There is no sample data to remove.', kh: 'មិនមានទិន្នន័យគំរូដែលត្រូវលុបទេ។' },
  'samples.in_use': {
    en: 'The sample data cannot be removed: records of your own use it ({uses}), and removing it would change them. It stays; deactivate the sample products or store if you no longer want them.',
    kh: 'មិនអាចលុបទិន្នន័យគំរូបានទេ៖ កំណត់ត្រារបស់អ្នកផ្ទាល់កំពុងប្រើវា ({uses}) ហើយការលុបនឹងធ្វើឱ្យកំណត់ត្រាទាំងនោះប្រែប្រួល។ ទិន្នន័យគំរូនៅដដែល៖ សូមបិទដំណើរការផលិតផល ឬហាងគំរូ ប្រសិនបើអ្នកមិនចង់ប្រើវាទៀត។',
  },
  'purchase.paid': { en: 'Payment recorded.', kh: 'បានកត់ត្រាការបង់ប្រាក់។' },
  'purchase.cancelled': { en: 'Purchase cancelled.', kh: 'បានបោះបង់ការទិញ។' },
  'purchase.ordered': { en: 'Purchase ordered.', kh: 'បានបញ្ជាទិញ។' },
  'purchase.has_payments': {
    en: 'Purchase {number} has payments recorded: it cannot be cancelled.',
    kh: 'ការទិញ {number} មានការបង់ប្រាក់ដែលបានកត់ត្រារួចហើយ៖ មិនអាចបោះបង់បានទេ។',
  },
  'purchase.below_paid': {
    en: 'The new total ({total}) is less than what has already been paid ({paid}).',
    kh: 'សរុបថ្មី ({total}) តិចជាងចំនួនដែលបានបង់រួចហើយ ({paid})។',
  },
  'purchase.line_too_large': {
    en: 'This line comes to more than {max}.',
    kh: 'ជួរនេះមានតម្លៃសរុបលើសពី {max}។',
  },
  'validation.product_inactive': { en: 'This product is not active.', kh: 'ផលិតផលនេះមិនសកម្មទេ។' },
  'validation.date_future': { en: 'The date cannot be in the future.', kh: 'កាលបរិច្ឆេទមិនអាចនៅថ្ងៃអនាគតបានទេ។' },
  'action.sent': { en: 'sent', kh: 'ផ្ញើ' },
  'action.received': { en: 'received', kh: 'ទទួល' },
  'action.cancelled': { en: 'cancelled', kh: 'បោះបង់' },
  'action.changed': { en: 'changed', kh: 'កែប្រែ' },
  'action.paid': { en: 'paid', kh: 'បង់ប្រាក់' },
  'action.ordered': { en: 'ordered', kh: 'បញ្ជាទិញ' },
  'status.draft': { en: 'a draft', kh: 'សេចក្ដីព្រាង' },
  'status.ordered': { en: 'ordered', kh: 'បានបញ្ជាទិញ' },
  'status.sent': { en: 'sent', kh: 'បានផ្ញើ' },
  'status.partially_received': { en: 'partly received', kh: 'បានទទួលខ្លះ' },
  'status.received': { en: 'received', kh: 'បានទទួល' },
  'status.cancelled': { en: 'cancelled', kh: 'បានបោះបង់' },
  'entity.purchase': { en: 'Purchase', kh: 'ការទិញ' },
  'entity.purchases': { en: 'purchases', kh: 'ការទិញ' },
  'entity.transfer': { en: 'Transfer', kh: 'ការផ្ទេរស្តុក' },
  'entity.stock_movements': { en: 'stock movements', kh: 'ចលនាស្តុក' },

  // discounts, combos, the exchange rate and the sale settings
  'validation.discount_percentage': {
    en: 'A percentage must be more than 0 % and at most 100 %.',
    kh: 'ភាគរយត្រូវធំជាង 0% និងមិនលើសពី 100%។',
  },
  'validation.date_order': {
    en: 'The end date cannot be before the start date.',
    kh: 'កាលបរិច្ឆេទបញ្ចប់មិនអាចនៅមុនកាលបរិច្ឆេទចាប់ផ្ដើមបានទេ។',
  },
  'validation.used_by_product': {
    en: 'A product already uses this value.',
    kh: 'មានផលិតផលមួយកំពុងប្រើតម្លៃនេះរួចហើយ។',
  },
  'combo.duplicate_item': {
    en: 'This product is already in the combo in this unit.',
    kh: 'ផលិតផលនេះមាននៅក្នុងឈុតក្នុងឯកតានេះរួចហើយ។',
  },
  'combo.product_deleted': {
    en: 'The product “{product}” of this combo has been deleted: restore the product first.',
    kh: 'ផលិតផល «{product}» នៃឈុតនេះត្រូវបានលុប៖ សូមស្ដារផលិតផលនោះឡើងវិញជាមុនសិន។',
  },
  'rate.saved': {
    en: 'Exchange rate updated: {rate} riel per dollar.',
    kh: 'បានធ្វើបច្ចុប្បន្នភាពអត្រាប្ដូរប្រាក់៖ {rate} រៀលក្នុងមួយដុល្លារ។',
  },
  'settings.sale_saved': { en: 'Sale settings saved.', kh: 'បានរក្សាទុកការកំណត់ការលក់។' },
  'settings.saved': { en: 'System settings saved.', kh: 'បានរក្សាទុកការកំណត់ប្រព័ន្ធ។' },
  'settings.image_saved': { en: 'Picture saved.', kh: 'បានរក្សាទុករូបភាព។' },
  'settings.image_removed': { en: 'Picture removed.', kh: 'បានដករូបភាពចេញ។' },
  'profile.saved': { en: 'Profile saved.', kh: 'បានរក្សាទុកប្រវត្តិរូប។' },
  'profile.pdf_unavailable': {
    en: 'The profile PDF cannot be made on this server: its browser (Chromium) is not installed.',
    kh: 'ប្រព័ន្ធនេះមិនអាចបង្កើតឯកសារ PDF នៃប្រវត្តិរូបបានទេ៖ កម្មវិធីរុករក (Chromium) មិនទាន់បានដំឡើង។',
  },
  'entity.discount': { en: 'Discount', kh: 'ការបញ្ចុះតម្លៃ' },
  'entity.discounts': { en: 'discounts', kh: 'ការបញ្ចុះតម្លៃ' },
  'entity.combo': { en: 'Combo', kh: 'ឈុតផលិតផល' },
  'entity.combos': { en: 'combos', kh: 'ឈុតផលិតផល' },

  // sales (spec: a customer and a product must be selected; not enough stock for the product)
  'order.offline_sold_at': {
    en: 'An offline sale must have been made in the last 30 days, not later than now.',
    kh: 'ការលក់ពេលគ្មានអ៊ីនធឺណិតត្រូវតែធ្វើក្នុងរយៈពេល 30 ថ្ងៃចុងក្រោយ មិនលើសពីពេលនេះ។',
  },
  'order.offline_only_new': {
    en: 'Only a new sale can be sent as made offline.',
    kh: 'មានតែការលក់ថ្មីប៉ុណ្ណោះដែលអាចផ្ញើជាការលក់ពេលគ្មានអ៊ីនធឺណិត។',
  },
  'order.product_or_combo': { en: 'Choose a product or a combo.', kh: 'សូមជ្រើសរើសផលិតផល ឬឈុតផលិតផល។' },
  'order.discount_not_applicable': {
    en: 'This discount does not apply here today.',
    kh: 'ការបញ្ចុះតម្លៃនេះមិនអាចប្រើនៅទីនេះថ្ងៃនេះទេ។',
  },
  'order.state': {
    en: 'Order {number} is {status}: it cannot be {action}.',
    kh: 'ការលក់ {number} ស្ថិតក្នុងស្ថានភាព {status}៖ មិនអាច{action}បានទេ។',
  },
  'order.nothing_due': { en: 'Nothing is left to pay on this order.', kh: 'ការលក់នេះគ្មានអ្វីត្រូវបង់ទៀតទេ។' },
  'order.not_paid': {
    en: 'Only a paid order can take returns.',
    kh: 'មានតែការលក់ដែលបានបង់រួចទេ ទើបអាចទទួលទំនិញត្រឡប់វិញបាន។',
  },
  'order.over_returned': {
    en: 'More than is left to return on this line ({left}).',
    kh: 'លើសពីចំនួនដែលនៅសល់អាចទទួលត្រឡប់វិញលើជួរនេះ ({left})។',
  },
  'serial.format': {
    en: 'A serial number is letters, digits, - / or . (up to 64).',
    kh: 'លេខសៀរៀលមានតែអក្សរ លេខ - / ឬ . (រហូតដល់ 64)។',
  },
  'serial.imei': {
    en: 'This IMEI’s check digit is wrong: check the 15 digits.',
    kh: 'លេខត្រួតពិនិត្យនៃ IMEI នេះមិនត្រឹមត្រូវ៖ សូមពិនិត្យលេខទាំង 15 ម្ដងទៀត។',
  },
  'serial.duplicate': { en: 'The same serial number is named twice.', kh: 'លេខសៀរៀលដដែលត្រូវបានដាក់ពីរដង។' },
  'serial.count': {
    en: 'Name one serial number per unit ({count}).',
    kh: 'សូមដាក់លេខសៀរៀលមួយសម្រាប់ឯកតានីមួយៗ ({count})។',
  },
  'serial.not_tracked': {
    en: 'This product does not take serial numbers.',
    kh: 'ផលិតផលនេះមិនប្រើលេខសៀរៀលទេ។',
  },
  'serial.not_in_stock': {
    en: 'Serial {serial} is not in stock at this store.',
    kh: 'លេខសៀរៀល {serial} មិនមាននៅក្នុងស្តុកនៃហាងនេះទេ។',
  },
  'serial.exists': {
    en: 'Serial {serial} is already recorded for this product.',
    kh: 'លេខសៀរៀល {serial} មានកត់ត្រាសម្រាប់ផលិតផលនេះរួចហើយ។',
  },
  'serial.not_on_sale': {
    en: 'Serial {serial} was not sold on this line.',
    kh: 'លេខសៀរៀល {serial} មិនត្រូវបានលក់នៅលើជួរនេះទេ។',
  },
  'serial.in_combo': {
    en: 'A product with serial numbers is sold on its own, not in a combo.',
    kh: 'ផលិតផលដែលមានលេខសៀរៀលត្រូវលក់ដាច់ដោយឡែក មិនមែនក្នុងឈុតទេ។',
  },
  'order.not_item': { en: 'This line is not on this order.', kh: 'ជួរនេះមិនមែនជារបស់ការលក់នេះទេ។' },
  'order.no_delivery': { en: 'This order has no delivery.', kh: 'ការលក់នេះគ្មានការដឹកជញ្ជូនទេ។' },
  'order.delivery_step': {
    en: 'A delivery that is {from} cannot go to {to}.',
    kh: 'ការដឹកជញ្ជូនដែលស្ថិតក្នុងស្ថានភាព {from} មិនអាចទៅ {to} បានទេ។',
  },
  'order.over_paid_card': {
    en: 'Card, transfer and KHQR payments cannot be more than what is due ({due}).',
    kh: 'ការបង់ប្រាក់តាមកាតធនាគារ ការផ្ទេរប្រាក់ និង KHQR មិនអាចលើសពីចំនួនដែលត្រូវបង់ ({due}) បានទេ។',
  },
  'order.created': { en: 'Sale recorded.', kh: 'បានកត់ត្រាការលក់។' },
  'order.held': { en: 'Order held: resume it from the order list.', kh: 'បានផ្អាកការលក់៖ អាចបន្តពីបញ្ជីការលក់។' },
  'order.paid': { en: 'Payment recorded.', kh: 'បានកត់ត្រាការបង់ប្រាក់។' },
  'order.cancelled': { en: 'Order cancelled: its stock is back.', kh: 'បានបោះបង់ការលក់៖ ស្តុកបានត្រឡប់វិញ។' },
  'order.returned': { en: 'Return recorded: the stock is back.', kh: 'បានកត់ត្រាការទទួលទំនិញត្រឡប់វិញ៖ ស្តុកបានត្រឡប់វិញ។' },
  'order.delivery_moved': { en: 'Delivery updated.', kh: 'បានធ្វើបច្ចុប្បន្នភាពការដឹកជញ្ជូន។' },
  'entity.order': { en: 'Order', kh: 'ការលក់' },
  'entity.invoice': { en: 'Invoice', kh: 'វិក្កយបត្រ' },
  'status.held': { en: 'held', kh: 'បានផ្អាក' },
  'status.confirmed': { en: 'confirmed', kh: 'បានលក់' },
  'action.checked_out': { en: 'checked out', kh: 'គិតលុយ' },
  'action.returned': { en: 'returned', kh: 'ទទួលត្រឡប់វិញ' },
  'delivery.preparing': { en: 'preparing', kh: 'កំពុងរៀបចំ' },
  'delivery.preparing_done': { en: 'prepared', kh: 'រៀបចំរួច' },
  'delivery.ready_for_delivery': { en: 'ready for delivery', kh: 'រួចរាល់សម្រាប់ដឹកជញ្ជូន' },
  'delivery.shipping': { en: 'shipping', kh: 'កំពុងដឹកជញ្ជូន' },
  'delivery.shipped': { en: 'shipped', kh: 'បានបញ្ជូនចេញ' },
  'delivery.returned': { en: 'returned / problem', kh: 'ត្រឡប់វិញ / មានបញ្ហា' },
  'delivery.completed': { en: 'completed', kh: 'បានបញ្ចប់' },

  // idempotency (DESIGN.md section 3)
  'idempotency.mismatch': {
    en: 'This Idempotency-Key was used for another request.',
    kh: 'Idempotency-Key នេះត្រូវបានប្រើសម្រាប់សំណើផ្សេងរួចហើយ។',
  },

  // authentication (spec sections 4 and 8)
  'auth.failed': { en: 'Username or password is incorrect.', kh: 'ឈ្មោះអ្នកប្រើប្រាស់ ឬពាក្យសម្ងាត់មិនត្រឹមត្រូវ។' },
  'auth.disabled': {
    en: 'This account is disabled. Ask an administrator.',
    kh: 'គណនីនេះត្រូវបានបិទ។ សូមទាក់ទងអ្នកគ្រប់គ្រងប្រព័ន្ធ។',
  },
  'auth.throttled': {
    en: 'Too many failed sign-in attempts. Try again in {seconds} seconds.',
    kh: 'ការចូលបរាជ័យច្រើនដងពេក។ សូមព្យាយាមម្ដងទៀតក្នុងរយៈពេល {seconds} វិនាទី។',
  },
  'auth.slowed': {
    en: 'Too many failed attempts for this name. Wait {seconds} seconds before trying again.',
    kh: 'ការព្យាយាមបរាជ័យច្រើនដងពេកសម្រាប់ឈ្មោះនេះ។ សូមរង់ចាំ {seconds} វិនាទី មុននឹងព្យាយាមម្ដងទៀត។',
  },
  'auth.refresh_failed': {
    en: 'Your session has ended. Please sign in again.',
    kh: 'វគ្គរបស់អ្នកបានបញ្ចប់។ សូមចូលម្ដងទៀត។',
  },
  'auth.logged_out': { en: 'You have been signed out.', kh: 'អ្នកបានចាកចេញដោយជោគជ័យ។' },
  'auth.unauthenticated': { en: 'Unauthenticated.', kh: 'មិនទាន់បានផ្ទៀងផ្ទាត់អត្តសញ្ញាណ។' },
  'auth.forbidden': {
    en: 'You do not have permission to do this.',
    kh: 'អ្នកមិនមានសិទ្ធិធ្វើសកម្មភាពនេះទេ។',
  },

  // real time (spec sections 7 and 8): a channel the user may not listen to
  'broadcasting.forbidden': {
    en: 'You may not listen to this channel.',
    kh: 'អ្នកមិនមានសិទ្ធិទទួលព័ត៌មានពីប៉ុស្តិ៍នេះទេ។',
  },

  // the customer display (modules/display): pairing a tablet with a till
  'display.code_wrong': {
    en: 'This code is wrong or has expired. Ask the cashier for a new one.',
    kh: 'លេខកូដនេះមិនត្រឹមត្រូវ ឬផុតកំណត់ហើយ។ សូមសុំលេខកូដថ្មីពីអ្នកគិតលុយ។',
  },
  'display.throttled': {
    en: 'Too many wrong codes. Try again in {seconds} seconds.',
    kh: 'លេខកូដខុសច្រើនដងពេក។ សូមព្យាយាមម្ដងទៀតក្នុងរយៈពេល {seconds} វិនាទី។',
  },
  'display.unpaired': {
    en: 'This display is no longer paired with a till.',
    kh: 'អេក្រង់នេះលែងភ្ជាប់ជាមួយកន្លែងគិតលុយហើយ។',
  },

  // notifications (the inbox)
  'notification.read': { en: 'Marked as read.', kh: 'បានសម្គាល់ថាបានអាន។' },
  'notification.unread': { en: 'Marked as unread.', kh: 'បានសម្គាល់ថាមិនទាន់អាន។' },
  'notification.read_all': {
    en: 'All notifications marked as read ({count}).',
    kh: 'បានសម្គាល់ការជូនដំណឹងទាំងអស់ថាបានអាន ({count})។',
  },
  'notification.archived': { en: 'Notification archived.', kh: 'បានទុកការជូនដំណឹងក្នុងបណ្ណសារ។' },
  'notification.unarchived': {
    en: 'Notification moved back to the inbox.',
    kh: 'បានយកការជូនដំណឹងត្រឡប់ទៅប្រអប់ទទួលវិញ។',
  },
  'notification.deleted': { en: 'Notification deleted.', kh: 'បានលុបការជូនដំណឹង។' },

  // policies: who may do what, in which store (apps/server/src/policies)
  'policy.store': { en: 'You do not work in this store.', kh: 'អ្នកមិនបានធ្វើការនៅហាងនេះទេ។' },
  'policy.not_yours': {
    en: 'Only the cashier who held this order, or a manager, may change it.',
    kh: 'មានតែអ្នកគិតលុយដែលបានផ្អាកការលក់នេះ ឬអ្នកគ្រប់គ្រងប៉ុណ្ណោះ ដែលអាចកែប្រែវាបាន។',
  },
  'policy.prices': { en: 'You may not change selling prices.', kh: 'អ្នកមិនមានសិទ្ធិកែប្រែតម្លៃលក់ទេ។' },
  'policy.opening_stock': {
    en: 'You may not give a product opening stock: stock adjustments are not yours.',
    kh: 'អ្នកមិនមានសិទ្ធិបញ្ចូលស្តុកដើមគ្រាទេ៖ អ្នកមិនមានសិទ្ធិកែតម្រូវស្តុក។',
  },
  'approval.required': {
    en: 'A manager’s approval is needed: enter a manager’s name and password.',
    kh: 'ត្រូវការការអនុម័តពីអ្នកគ្រប់គ្រង៖ សូមបញ្ចូលឈ្មោះ និងពាក្យសម្ងាត់របស់អ្នកគ្រប់គ្រង។',
  },
  'approval.temporary_password': {
    en: 'This password is temporary: its owner must sign in and change it before approving.',
    kh: 'ពាក្យសម្ងាត់នេះជាពាក្យសម្ងាត់បណ្ដោះអាសន្ន៖ ម្ចាស់គណនីត្រូវចូល ហើយប្ដូរវាជាមុនសិន ទើបអាចអនុម័តបាន។',
  },
  'approval.not_allowed': {
    en: 'This user may not approve this in this store.',
    kh: 'អ្នកប្រើប្រាស់នេះមិនមានសិទ្ធិអនុម័តការនេះនៅហាងនេះទេ។',
  },

  // records (spec section 8: each entity has success messages for created, updated, deleted, restored)
  'resource.created': { en: '{entity} created.', kh: 'បានបង្កើត{entity}ដោយជោគជ័យ។' },
  'resource.updated': { en: '{entity} updated.', kh: 'បានកែប្រែ{entity}ដោយជោគជ័យ។' },
  'resource.deleted': { en: '{entity} deleted.', kh: 'បានលុប{entity}ដោយជោគជ័យ។' },
  'resource.restored': { en: '{entity} restored.', kh: 'បានស្ដារ{entity}ឡើងវិញដោយជោគជ័យ។' },
  'resource.in_use': {
    en: '{entity} cannot be deleted: {dependents} still use it ({count}).',
    kh: 'មិនអាចលុប{entity}បានទេ ព្រោះនៅមាន{dependents} {count} កំពុងប្រើ។',
  },
  'resource.conflict': {
    en: 'Another record already has these values.',
    kh: 'មានកំណត់ត្រាផ្សេងដែលមានតម្លៃទាំងនេះរួចហើយ។',
  },
  'entity.brand': { en: 'Brand', kh: 'ម៉ាក' },
  'entity.category': { en: 'Category', kh: 'ប្រភេទ' },
  'entity.sub_category': { en: 'Sub-category', kh: 'ប្រភេទរង' },
  'entity.unit': { en: 'Unit', kh: 'ឯកតា' },
  'entity.province': { en: 'Province', kh: 'ខេត្ត/រាជធានី' },
  'entity.district': { en: 'District', kh: 'ស្រុក/ខណ្ឌ' },
  'entity.commune': { en: 'Commune', kh: 'ឃុំ/សង្កាត់' },
  'entity.village': { en: 'Village', kh: 'ភូមិ' },
  'entity.operational_district': { en: 'Operational district', kh: 'ស្រុកប្រតិបត្តិ' },
  'entity.health_facility': { en: 'Health facility', kh: 'មូលដ្ឋានសុខាភិបាល' },
  'entity.districts': { en: 'districts', kh: 'ស្រុក/ខណ្ឌ' },
  'entity.communes': { en: 'communes', kh: 'ឃុំ/សង្កាត់' },
  'entity.villages': { en: 'villages', kh: 'ភូមិ' },
  'entity.operational_districts': { en: 'operational districts', kh: 'ស្រុកប្រតិបត្តិ' },
  'entity.health_facilities': { en: 'health facilities', kh: 'មូលដ្ឋានសុខាភិបាល' },
  'entity.store': { en: 'Store', kh: 'ហាង' },
  'entity.customer': { en: 'Customer', kh: 'អតិថិជន' },
  'entity.customers': { en: 'customers', kh: 'អតិថិជន' },
  'entity.customer_group': { en: 'Customer group', kh: 'ក្រុមអតិថិជន' },
  'entity.price_list': { en: 'Price', kh: 'តម្លៃ' },
  'entity.price_lists': { en: 'prices', kh: 'តម្លៃ' },
  'price.category_break': {
    en: 'A category price is a quantity break: from 2 units or more.',
    kh: 'តម្លៃតាមប្រភេទគឺជាតម្លៃលក់ដុំតាមបរិមាណ៖ ចាប់ពី 2 ឯកតាឡើងទៅ។',
  },
  'price.own_unit_base': {
    en: "The base list's price of the product's own unit is the product's price: change it on the product.",
    kh: 'តម្លៃក្នុងបញ្ជីមូលដ្ឋានសម្រាប់ឯកតាផ្ទាល់របស់ផលិតផល គឺជាតម្លៃផលិតផល៖ សូមកែវានៅលើផលិតផល។',
  },
  'price.duplicate': {
    en: 'This price list already has a price for this from that quantity.',
    kh: 'បញ្ជីតម្លៃនេះមានតម្លៃសម្រាប់វានៅបរិមាណនោះរួចហើយ។',
  },
  'entity.supplier': { en: 'Supplier', kh: 'អ្នកផ្គត់ផ្គង់' },
  'entity.users': { en: 'users', kh: 'អ្នកប្រើប្រាស់' },
  'resource.walk_in': {
    en: 'The walk-in customer is used by every sale without a customer and cannot be deleted.',
    kh: 'អតិថិជនទូទៅត្រូវបានប្រើសម្រាប់ការលក់ដែលគ្មានអតិថិជន ហើយមិនអាចលុបបានទេ។',
  },
  'entity.product': { en: 'Product', kh: 'ផលិតផល' },
  'entity.products': { en: 'products', kh: 'ផលិតផល' },
  'entity.sub_categories': { en: 'sub-categories', kh: 'ប្រភេទរង' },
  'entity.units': { en: 'units', kh: 'ឯកតា' },

  // KHQR and receipt printers
  'khqr.incomplete': {
    en: 'A Bakong account needs its account id, merchant name and city together.',
    kh: 'គណនីបាគងត្រូវការលេខសម្គាល់គណនី ឈ្មោះអាជីវករ និងទីក្រុងជាមួយគ្នា។',
  },
  'khqr.bank_needed': {
    en: 'A merchant account names its acquiring bank.',
    kh: 'គណនីអាជីវករត្រូវបញ្ជាក់ធនាគារទទួលប្រាក់។',
  },
  'khqr.not_set_up': {
    en: 'Store {store} has no Bakong account for KHQR: set it in the store’s settings.',
    kh: 'ហាង {store} មិនទាន់មានគណនីបាគងសម្រាប់ KHQR ទេ៖ សូមកំណត់វានៅក្នុងការកំណត់ហាង។',
  },
  'khqr.made': { en: 'KHQR ready for {amount}.', kh: 'KHQR សម្រាប់ {amount} រួចរាល់។' },
  'khqr.too_large': {
    en: 'The amount is too large for one KHQR.',
    kh: 'ចំនួនទឹកប្រាក់ធំពេកសម្រាប់ KHQR មួយ។',
  },
  'khqr.bakong_off': {
    en: 'Payment checks through Bakong are not set up: confirm the payment by hand.',
    kh: 'មិនទាន់បានរៀបចំការពិនិត្យការបង់ប្រាក់តាមបាគងទេ៖ សូមបញ្ជាក់ការបង់ប្រាក់ដោយដៃ។',
  },
  'khqr.bakong_unreachable': {
    en: 'Bakong could not be reached: try again, or confirm the payment by hand.',
    kh: 'មិនអាចភ្ជាប់ទៅបាគងបានទេ៖ សូមព្យាយាមម្ដងទៀត ឬបញ្ជាក់ការបង់ប្រាក់ដោយដៃ។',
  },
  'khqr.not_paid_yet': {
    en: 'Bakong has no payment for this QR yet.',
    kh: 'បាគងមិនទាន់មានការបង់ប្រាក់សម្រាប់ QR នេះនៅឡើយទេ។',
  },
  'einvoice.not_configured': {
    en: 'CamInvoice is not set up on this server (CAMINVOICE_CLIENT_ID and CAMINVOICE_CLIENT_SECRET).',
    kh: 'CamInvoice មិនទាន់បានរៀបចំនៅលើប្រព័ន្ធនេះទេ (CAMINVOICE_CLIENT_ID និង CAMINVOICE_CLIENT_SECRET)។',
  },
  'einvoice.not_connected': {
    en: 'Connect the business to CamInvoice first (Settings, CamInvoice).',
    kh: 'សូមភ្ជាប់អាជីវកម្មទៅ CamInvoice ជាមុនសិន (ការកំណត់ CamInvoice)។',
  },
  'einvoice.state': {
    en: 'This connection request is unknown or has expired: start connecting again.',
    kh: 'សំណើភ្ជាប់នេះមិនស្គាល់ ឬផុតកំណត់ហើយ៖ សូមចាប់ផ្ដើមភ្ជាប់ម្ដងទៀត។',
  },
  'einvoice.refused': {
    en: 'CamInvoice refused the connection: {reason}',
    kh: 'CamInvoice បានបដិសេធការភ្ជាប់៖ {reason}',
  },
  'einvoice.unreachable': {
    en: 'CamInvoice did not answer. Try again in a moment.',
    kh: 'CamInvoice មិនបានឆ្លើយតបទេ។ សូមព្យាយាមម្ដងទៀតបន្តិចទៀត។',
  },
  'einvoice.connected': {
    en: 'Connected to CamInvoice as {name}.',
    kh: 'បានភ្ជាប់ទៅ CamInvoice ជា {name}។',
  },
  'einvoice.disconnected': { en: 'Disconnected from CamInvoice.', kh: 'បានផ្ដាច់ពី CamInvoice។' },
  'einvoice.queued': {
    en: 'Document {number} will be sent to CamInvoice.',
    kh: 'ឯកសារ {number} នឹងត្រូវផ្ញើទៅ CamInvoice។',
  },
  'einvoice.no_source': {
    en: 'Documents of this kind cannot be sent to CamInvoice.',
    kh: 'ឯកសារប្រភេទនេះមិនអាចផ្ញើទៅ CamInvoice បានទេ។',
  },
  'einvoice.final': {
    en: 'Document {number} is already {status} on CamInvoice.',
    kh: 'ឯកសារ {number} មានស្ថានភាព {status} នៅលើ CamInvoice រួចហើយ។',
  },
  'einvoice.tin_unknown': {
    en: 'No business with this TIN is on CamInvoice.',
    kh: 'គ្មានអាជីវកម្មដែលមានលេខអត្តសញ្ញាណកម្ម អតប នេះនៅលើ CamInvoice ទេ។',
  },
  'einvoice.purchase_made': {
    en: 'Draft purchase {number} made from the e-invoice.',
    kh: 'បានបង្កើតព្រាងការទិញ {number} ពីវិក្កយបត្រអេឡិចត្រូនិក។',
  },
  'einvoice.purchase_exists': {
    en: 'A purchase was already made from this e-invoice.',
    kh: 'ការទិញមួយត្រូវបានបង្កើតពីវិក្កយបត្រអេឡិចត្រូនិកនេះរួចហើយ។',
  },
  'einvoice.lines_count': {
    en: 'Give one product (or none) for each of the e-invoice’s {count} lines.',
    kh: 'សូមផ្ដល់ទំនិញមួយ (ឬគ្មាន) សម្រាប់បន្ទាត់នីមួយៗក្នុងចំណោម {count} បន្ទាត់នៃវិក្កយបត្រអេឡិចត្រូនិក។',
  },
  'einvoice.no_lines': {
    en: 'Choose a product for at least one line.',
    kh: 'សូមជ្រើសរើសទំនិញសម្រាប់យ៉ាងហោចណាស់មួយបន្ទាត់។',
  },
  'khqr.paid': { en: 'Bakong confirmed the payment.', kh: 'បាគងបានបញ្ជាក់ការបង់ប្រាក់។' },
  'khqr.mismatch': {
    en: 'The payment Bakong found does not match this QR (account, amount or currency).',
    kh: 'ការបង់ប្រាក់ដែលបាគងរកឃើញមិនត្រូវនឹង QR នេះទេ (គណនី ចំនួនទឹកប្រាក់ ឬរូបិយប័ណ្ណ)។',
  },
  'khqr.unknown': { en: 'This QR was not made for this order.', kh: 'QR នេះមិនត្រូវបានបង្កើតសម្រាប់ការលក់នេះទេ។' },
  'khqr.bakong_refused': {
    en: 'Bakong refused the call: it answers only calls from Cambodia. Set a relay in Cambodia (BAKONG_RELAY_URL), or confirm the payment by hand.',
    kh: 'បាគងបានបដិសេធការហៅ៖ វាឆ្លើយតែការហៅពីប្រទេសកម្ពុជាប៉ុណ្ណោះ។ សូមកំណត់ម៉ាស៊ីនបញ្ជូនបន្តនៅកម្ពុជា (BAKONG_RELAY_URL) ឬបញ្ជាក់ការបង់ប្រាក់ដោយដៃ។',
  },
  'khqr.bakong_token': {
    en: 'Bakong refused this server’s token: it is wrong or has expired. Renew it (docs/OPERATIONS.md); meanwhile confirm payments by hand.',
    kh: 'បាគងបានបដិសេធសោសម្ងាត់ (token) របស់ប្រព័ន្ធនេះ៖ វាខុស ឬផុតកំណត់ហើយ។ សូមបន្តវា (docs/OPERATIONS.md)៖ ក្នុងពេលនេះ សូមបញ្ជាក់ការបង់ប្រាក់ដោយដៃ។',
  },
  'khqr.hash_used': {
    en: 'This transfer already paid sale {number}: one transfer pays one sale.',
    kh: 'ការផ្ទេរប្រាក់នេះបានបង់សម្រាប់ការលក់ {number} រួចហើយ៖ ការផ្ទេរប្រាក់មួយបង់បានតែការលក់មួយប៉ុណ្ណោះ។',
  },
  'khqr.transfer_not_found': {
    en: 'Bakong has no transfer {hash} of {amount}: check the reference and the amount.',
    kh: 'បាគងគ្មានការផ្ទេរប្រាក់ {hash} ចំនួន {amount} ទេ៖ សូមពិនិត្យលេខយោង និងចំនួនទឹកប្រាក់។',
  },
  'khqr.transfer_mismatch': {
    en: 'Transfer {hash} was not paid into this store’s account with this amount and currency.',
    kh: 'ការផ្ទេរប្រាក់ {hash} មិនបានបង់ចូលគណនីរបស់ហាងនេះ ជាមួយចំនួនទឹកប្រាក់ និងរូបិយប័ណ្ណនេះទេ។',
  },
  'khqr.transfer_paid': {
    en: 'Bakong confirmed the transfer: the payment is recorded.',
    kh: 'បាគងបានបញ្ជាក់ការផ្ទេរប្រាក់៖ ការបង់ប្រាក់ត្រូវបានកត់ត្រា។',
  },
  'khqr.offline_recorded': {
    en: 'The KHQR shown offline is recorded.',
    kh: 'KHQR ដែលបានបង្ហាញពេលគ្មានអ៊ីនធឺណិតត្រូវបានកត់ត្រា។',
  },
  'khqr.offline_invalid': {
    en: 'This is not a KHQR of this sale into its store’s account.',
    kh: 'នេះមិនមែនជា KHQR នៃការលក់នេះ ចូលគណនីរបស់ហាងនោះទេ។',
  },
  'khqr.swept': {
    en: 'Checked with Bakong: {confirmed} confirmed, {missing} not found.',
    kh: 'បានពិនិត្យជាមួយបាគង៖ បានបញ្ជាក់ {confirmed} មិនបានរកឃើញ {missing}។',
  },
  'entity.printer': { en: 'Printer', kh: 'ម៉ាស៊ីនបោះពុម្ព' },
  'printer.not_local': {
    en: 'A printer must be on the depot’s own network: {host} is not an address a printer may have (this server, a loopback, link-local, multicast, broadcast or outside address).',
    kh: 'ម៉ាស៊ីនបោះពុម្ពត្រូវនៅលើបណ្ដាញផ្ទាល់របស់ឃ្លាំង៖ {host} មិនមែនជាអាសយដ្ឋានដែលម៉ាស៊ីនបោះពុម្ពអាចមានទេ (ប្រព័ន្ធនេះផ្ទាល់ អាសយដ្ឋាន loopback, link-local, multicast, broadcast ឬអាសយដ្ឋានក្រៅបណ្ដាញ)។',
  },
  'stores.payee_admin': {
    en: 'Only an administrator may change the account a store’s KHQR payments go to.',
    kh: 'មានតែអ្នកគ្រប់គ្រងប្រព័ន្ធប៉ុណ្ណោះដែលអាចប្ដូរគណនីដែលការបង់ប្រាក់ KHQR របស់ហាងត្រូវចូល។',
  },
  'printer.port': {
    en: 'Printers are reached on ports {ports}: {port} is not one of them.',
    kh: 'ម៉ាស៊ីនបោះពុម្ពត្រូវបានភ្ជាប់តាមច្រក {ports}៖ ច្រក {port} មិនមែនជាច្រកមួយក្នុងចំណោមនោះទេ។',
  },
  'printer.unreachable': {
    en: 'Printer {name} did not answer: check that it is on and connected, then try again.',
    kh: 'ម៉ាស៊ីនបោះពុម្ព {name} មិនឆ្លើយតបទេ៖ សូមពិនិត្យថាវាបានបើក និងភ្ជាប់បណ្ដាញ រួចព្យាយាមម្ដងទៀត។',
  },
  'printer.printed': { en: 'Sent to printer {name}.', kh: 'បានផ្ញើទៅម៉ាស៊ីនបោះពុម្ព {name}។' },
  'printer.drawer_opened': { en: 'Cash drawer opened on {name}.', kh: 'បានបើកថតប្រាក់នៅ {name}។' },
  'printer.no_drawer': {
    en: 'No cash drawer is wired to printer {name}.',
    kh: 'គ្មានថតប្រាក់ភ្ជាប់ជាមួយម៉ាស៊ីនបោះពុម្ព {name} ទេ។',
  },
  'printer.inactive': {
    en: 'Printer {name} is switched off in its settings.',
    kh: 'ម៉ាស៊ីនបោះពុម្ព {name} ត្រូវបានបិទនៅក្នុងការកំណត់។',
  },
  'printer.other_store': {
    en: 'This printer belongs to another store.',
    kh: 'ម៉ាស៊ីនបោះពុម្ពនេះជារបស់ហាងផ្សេង។',
  },
  'printer.image': {
    en: 'Send the document as one PNG picture or as raster rows.',
    kh: 'សូមផ្ញើឯកសារជារូបភាព PNG មួយ ឬជាជួររ៉ាស្ទ័រ។',
  },
  'printer.bad_image': {
    en: 'The picture could not be read.',
    kh: 'មិនអាចអានរូបភាពបានទេ។',
  },

  // reports and dashboards: titles, figures and columns, read by the web and the exports
  'report.range_order': {
    en: 'The end date must not be before the start date.',
    kh: 'ថ្ងៃបញ្ចប់មិនអាចនៅមុនថ្ងៃចាប់ផ្ដើមបានទេ។',
  },
  'report.range_long': { en: 'Choose at most two years.', kh: 'សូមជ្រើសរើសយ៉ាងច្រើនពីរឆ្នាំ។' },
  'report.pdf_unavailable': {
    en: 'PDF export is not available: Chromium is not installed on the server. Export to Excel instead.',
    kh: 'មិនអាចនាំចេញជា PDF បានទេ៖ ប្រព័ន្ធមិនមាន Chromium។ សូមនាំចេញជា Excel ជំនួសវិញ។',
  },
  'report.sales': { en: 'Sales report', kh: 'របាយការណ៍លក់' },
  'report.inventory': { en: 'Inventory report', kh: 'របាយការណ៍ស្តុក' },
  'report.financial': { en: 'Financial report', kh: 'របាយការណ៍ហិរញ្ញវត្ថុ' },
  'report.customer': { en: 'Customer report', kh: 'របាយការណ៍អតិថិជន' },
  'report.period': { en: 'Period', kh: 'រយៈពេល' },
  'report.previous_period': { en: 'Previous period', kh: 'រយៈពេលមុន' },
  'report.store': { en: 'Store', kh: 'ហាង' },
  'report.all_stores': { en: 'All stores', kh: 'គ្រប់ហាង' },
  'report.generated_at': { en: 'Generated', kh: 'បង្កើតនៅ' },
  'report.summary': { en: 'Summary', kh: 'សង្ខេប' },
  'report.series': { en: 'By period', kh: 'តាមរយៈពេល' },
  'report.field.bucket': { en: 'Period', kh: 'រយៈពេល' },
  'report.field.orders': { en: 'Orders', kh: 'ការលក់' },
  'report.field.gross_cents': { en: 'Gross sales', kh: 'ការលក់សរុប' },
  'report.field.discount_cents': { en: 'Discounts', kh: 'ការបញ្ចុះតម្លៃ' },
  'report.field.returns_cents': { en: 'Returns (refunded)', kh: 'ទំនិញត្រឡប់ (ប្រាក់សងវិញ)' },
  'report.field.net_cents': { en: 'Net sales', kh: 'ការលក់សុទ្ធ' },
  'report.field.net_khr': { en: 'Net sales in riel', kh: 'ការលក់សុទ្ធជារៀល' },
  'report.field.tax_cents': { en: 'VAT', kh: 'អាករ' },
  'report.field.total_cents': { en: 'Total with VAT', kh: 'សរុបរួម (រួមអាករ)' },
  'report.field.average_cents': { en: 'Average basket', kh: 'តម្លៃមធ្យមក្នុងមួយការលក់' },
  'report.field.cogs_cents': { en: 'Cost of goods sold', kh: 'ថ្លៃដើមទំនិញដែលបានលក់' },
  'report.field.profit_cents': { en: 'Gross profit', kh: 'ប្រាក់ចំណេញដុល' },
  'report.field.margin': { en: 'Margin', kh: 'អត្រាចំណេញ' },
  'report.field.name': { en: 'Name', kh: 'ឈ្មោះ' },
  'report.field.sku': { en: 'SKU', kh: 'លេខ SKU' },
  'report.field.kind': { en: 'Kind', kh: 'ប្រភេទធាតុ' },
  'report.field.quantity': { en: 'Quantity', kh: 'បរិមាណ' },
  'report.field.returned_quantity': { en: 'Returned', kh: 'ទំនិញត្រឡប់' },
  'report.field.hour': { en: 'Hour', kh: 'ម៉ោង' },
  'report.field.method': { en: 'Payment method', kh: 'វិធីបង់ប្រាក់' },
  'report.field.amount': { en: 'Amount (in its currency)', kh: 'ចំនួនទឹកប្រាក់ (តាមរូបិយប័ណ្ណ)' },
  'report.field.amount_cents': { en: 'Amount', kh: 'ចំនួនទឹកប្រាក់' },
  'report.field.refund_cents': { en: 'Refunds', kh: 'ប្រាក់សងវិញ' },
  'report.field.on_hand': { en: 'On hand', kh: 'ស្តុកនៅសល់' },
  'report.field.value_cents': { en: 'Stock value', kh: 'តម្លៃស្តុក' },
  'report.field.products': { en: 'Products', kh: 'ផលិតផល' },
  'report.field.received': { en: 'Received', kh: 'បានទទួល' },
  'report.field.sold': { en: 'Sold', kh: 'បានលក់' },
  'report.field.transferred': { en: 'Transferred', kh: 'បានផ្ទេរ' },
  'report.field.adjusted': { en: 'Adjusted', kh: 'បានកែតម្រូវ' },
  'report.field.written_off': { en: 'Written off', kh: 'កាត់ចេញពីស្តុក' },
  'report.field.returned': { en: 'Returned', kh: 'ទំនិញត្រឡប់' },
  'report.field.movement': { en: 'Movement', kh: 'ចលនាស្តុក' },
  'report.field.lot': { en: 'Lot', kh: 'ឡូត' },
  'report.field.expiry_date': { en: 'Expiry date', kh: 'ថ្ងៃផុតកំណត់' },
  'report.field.state': { en: 'State', kh: 'ស្ថានភាព' },
  'report.field.reorder_level': { en: 'Reorder level', kh: 'កម្រិតបញ្ជាទិញបន្ថែម' },
  'report.field.daily_sales': { en: 'Sold a day', kh: 'លក់ក្នុងមួយថ្ងៃ' },
  'report.field.suggested': { en: 'Suggested order', kh: 'ចំនួនគួរបញ្ជាទិញ' },
  'report.field.last_sold': { en: 'Last sold', kh: 'លក់ចុងក្រោយ' },
  'report.field.customers': { en: 'Customers who bought', kh: 'អតិថិជនដែលបានទិញ' },
  'report.field.due_cents': { en: 'Still due', kh: 'នៅជំពាក់' },
  'report.field.last_order': { en: 'Last purchase', kh: 'ការទិញចុងក្រោយ' },
  'report.field.first_order': { en: 'First purchase', kh: 'ការទិញដំបូង' },
  'report.field.days_since': { en: 'Days since', kh: 'ចំនួនថ្ងៃកន្លងមក' },
  'report.field.phone': { en: 'Phone', kh: 'លេខទូរស័ព្ទ' },
  'report.field.purchases_cents': { en: 'Purchases', kh: 'ការទិញចូល' },
  'report.field.landed_cents': { en: 'Landed costs (shipping)', kh: 'ថ្លៃដឹកជញ្ជូនចូល' },
  'report.field.purchase_tax_cents': { en: 'VAT on purchases', kh: 'អាករលើការទិញចូល' },
  'report.field.supplier_paid_cents': { en: 'Paid to suppliers', kh: 'បានបង់ឱ្យអ្នកផ្គត់ផ្គង់' },
  'report.field.supplier_due_cents': { en: 'Still due to suppliers', kh: 'នៅជំពាក់អ្នកផ្គត់ផ្គង់' },
  'report.field.customer_due_cents': { en: 'Still due from customers', kh: 'អតិថិជននៅជំពាក់' },
  'report.field.currency': { en: 'Currency', kh: 'រូបិយប័ណ្ណ' },
  'report.field.received_amount': { en: 'Received', kh: 'បានទទួល' },
  'report.field.change_amount': { en: 'Given as change', kh: 'ប្រាក់អាប់' },
  'report.field.refunded_amount': { en: 'Refunded', kh: 'ប្រាក់សងវិញ' },
  'report.field.rate_khr': { en: 'Exchange rate', kh: 'អត្រាប្ដូរប្រាក់' },
  'report.field.rate_in_khr': { en: 'Rate for riel received', kh: 'អត្រាទទួលរៀល' },
  'report.field.rate_out_khr': { en: 'Rate for riel given', kh: 'អត្រាអាប់រៀល' },
  'report.field.supplier': { en: 'Supplier', kh: 'អ្នកផ្គត់ផ្គង់' },
  'report.field.number': { en: 'Number', kh: 'លេខ' },
  'report.field.date': { en: 'Date', kh: 'កាលបរិច្ឆេទ' },
  'report.field.low_stock': { en: 'Low stock', kh: 'ស្តុកជិតអស់' },
  'report.field.users_active': { en: 'Active users', kh: 'អ្នកប្រើប្រាស់សកម្ម' },
  'report.field.users_inactive': { en: 'Inactive users', kh: 'អ្នកប្រើប្រាស់អសកម្ម' },
  'report.field.must_change_password': { en: 'Must change their password', kh: 'ត្រូវប្ដូរពាក្យសម្ងាត់' },
  'report.field.sign_ins': { en: 'Sign-ins today', kh: 'ការចូលប្រព័ន្ធថ្ងៃនេះ' },
  'report.field.failed_sign_ins': { en: 'Refused sign-ins today', kh: 'ការចូលប្រព័ន្ធដែលត្រូវបដិសេធថ្ងៃនេះ' },
  'report.field.connections': { en: 'Screens connected live', kh: 'អេក្រង់ដែលកំពុងភ្ជាប់ផ្ទាល់' },
  'report.field.open_overnight': { en: 'Shifts left open overnight', kh: 'វេនដែលបើកទុកពេញមួយយប់' },
  'report.field.expiring': { en: 'Expiring or expired batches', kh: 'ឡូតជិតផុតកំណត់ ឬផុតកំណត់' },
  'report.field.purchases_due': { en: 'Purchases due to suppliers', kh: 'ការទិញចូលនៅជំពាក់អ្នកផ្គត់ផ្គង់' },
  'report.field.unpaid_orders': { en: 'Unpaid or partly paid orders', kh: 'ការលក់មិនទាន់បង់ ឬបង់មិនគ្រប់' },
  'report.field.deliveries': { en: 'Deliveries waiting', kh: 'ការដឹកជញ្ជូនកំពុងរង់ចាំ' },
  'report.field.cashier': { en: 'Cashier', kh: 'អ្នកគិតលុយ' },
  'report.field.store': { en: 'Store', kh: 'ហាង' },
  'report.field.category': { en: 'Category', kh: 'ប្រភេទ' },
  'report.field.brand': { en: 'Brand', kh: 'ម៉ាក' },
  'report.field.customer': { en: 'Customer', kh: 'អតិថិជន' },
  'report.field.combo': { en: 'Combo', kh: 'ឈុត' },
  'report.field.lapsed': { en: 'Customers who stopped buying', kh: 'អតិថិជនដែលឈប់ទិញ' },
  'report.section.by_product': { en: 'By product and combo', kh: 'តាមផលិតផល និងឈុត' },
  'report.section.by_category': { en: 'By category', kh: 'តាមប្រភេទ' },
  'report.section.by_brand': { en: 'By brand', kh: 'តាមម៉ាក' },
  'report.section.by_cashier': { en: 'By cashier', kh: 'តាមអ្នកគិតលុយ' },
  'report.section.by_store': { en: 'By store', kh: 'តាមហាង' },
  'report.section.by_payment': { en: 'By payment method', kh: 'តាមវិធីបង់ប្រាក់' },
  'report.section.by_hour': { en: 'By hour of day', kh: 'តាមម៉ោងក្នុងថ្ងៃ' },
  'report.section.combo_items': { en: 'Combos and their items', kh: 'ឈុត និងមុខទំនិញរបស់វា' },
  'report.section.stock_by_store': { en: 'Stock on hand by store', kh: 'ស្តុកនៅសល់តាមហាង' },
  'report.section.stock_by_category': { en: 'Stock on hand by category', kh: 'ស្តុកនៅសល់តាមប្រភេទ' },
  'report.section.stock_by_product': { en: 'Stock on hand by product', kh: 'ស្តុកនៅសល់តាមផលិតផល' },
  'report.section.movements': { en: 'Movements in the period', kh: 'ចលនាស្តុកក្នុងរយៈពេល' },
  'report.section.dead_stock': { en: 'Slow and dead stock', kh: 'ស្តុកលក់យឺត និងមិនលក់' },
  'report.section.expiring': { en: 'Expiring and expired batches', kh: 'ឡូតជិតផុតកំណត់ និងផុតកំណត់' },
  'report.section.reorder': { en: 'Reorder suggestions', kh: 'ការណែនាំឱ្យបញ្ជាទិញបន្ថែម' },
  'report.section.cash': { en: 'Cash by currency', kh: 'សាច់ប្រាក់តាមរូបិយប័ណ្ណ' },
  'report.section.rates': { en: 'Exchange rates used', kh: 'អត្រាប្ដូរប្រាក់ដែលបានប្រើ' },
  'report.section.suppliers_due': { en: 'Amounts still due to suppliers', kh: 'ចំនួននៅជំពាក់អ្នកផ្គត់ផ្គង់' },
  'report.section.top_customers': { en: 'Top customers', kh: 'អតិថិជនកំពូល' },
  'report.section.customers_due': { en: 'Amounts still due from customers', kh: 'ចំនួនអតិថិជននៅជំពាក់' },
  'report.section.lapsed': { en: 'Customers who stopped buying', kh: 'អតិថិជនដែលឈប់ទិញ' },
  'report.section.top_products': { en: 'Top products', kh: 'ផលិតផលលក់ដាច់' },
  'report.section.top_categories': { en: 'Top categories', kh: 'ប្រភេទលក់ដាច់' },
  'report.value.product': { en: 'Product', kh: 'ផលិតផល' },
  'report.value.combo': { en: 'Combo', kh: 'ឈុត' },
  'report.value.none': { en: 'None', kh: 'គ្មាន' },
  'report.value.usd': { en: 'US dollars', kh: 'ដុល្លារ' },
  'report.value.khr': { en: 'Riel', kh: 'រៀល' },
  'report.value.expired': { en: 'Expired', kh: 'ផុតកំណត់' },
  'report.value.expiring': { en: 'Expiring', kh: 'ជិតផុតកំណត់' },
  'report.value.dead': { en: 'Not sold in the period', kh: 'មិនបានលក់ក្នុងរយៈពេលនេះ' },
  'report.value.slow': { en: 'Slow', kh: 'លក់យឺត' },
  'report.method.cash_usd': { en: 'Cash (dollars)', kh: 'សាច់ប្រាក់ (ដុល្លារ)' },
  'report.method.cash_khr': { en: 'Cash (riel)', kh: 'សាច់ប្រាក់ (រៀល)' },
  'report.method.bank_transfer': { en: 'Bank transfer', kh: 'ផ្ទេរតាមធនាគារ' },
  'report.method.khqr': { en: 'KHQR', kh: 'ស្កេន KHQR' },
  'report.method.card': { en: 'Card', kh: 'កាតធនាគារ' },
  'report.method.cheque': { en: 'Cheque', kh: 'មូលប្បទានបត្រ' },
  'report.method.credit': { en: 'On credit', kh: 'ជំពាក់' },
  'report.method.refund': { en: 'Refund', kh: 'ប្រាក់សងវិញ' },
  // administration: users, roles, coverage, the audit trail
  'entity.user': { en: 'User', kh: 'អ្នកប្រើប្រាស់' },
  'entity.role': { en: 'Role', kh: 'តួនាទី' },
  'entity.roles': { en: 'roles', kh: 'តួនាទី' },
  'users.last_admin': {
    en: 'At least one active administrator must remain: this change would lock everyone out of Depot.',
    kh: 'ត្រូវតែមានអ្នកគ្រប់គ្រងប្រព័ន្ធសកម្មយ៉ាងហោចណាស់ម្នាក់៖ ការផ្លាស់ប្ដូរនេះនឹងធ្វើឱ្យគ្មាននរណាម្នាក់អាចចូលប្រព័ន្ធបាន។',
  },
  'users.self': {
    en: 'You cannot disable or delete your own account.',
    kh: 'អ្នកមិនអាចបិទ ឬលុបគណនីផ្ទាល់ខ្លួនបានទេ។',
  },
  'users.password_reset': {
    en: 'Password reset. The user must choose a new one at their next sign-in.',
    kh: 'បានកំណត់ពាក្យសម្ងាត់ឡើងវិញ។ អ្នកប្រើប្រាស់ត្រូវជ្រើសរើសពាក្យសម្ងាត់ថ្មីនៅពេលចូលលើកក្រោយ។',
  },
  'users.disabled': {
    en: 'User disabled. Their sessions have ended.',
    kh: 'បានបិទអ្នកប្រើប្រាស់។ វគ្គចូលប្រើរបស់គាត់ត្រូវបានបញ្ចប់។',
  },
  'users.enabled': { en: 'User enabled.', kh: 'បានបើកអ្នកប្រើប្រាស់។' },
  'users.coverage_saved': { en: 'Coverage saved.', kh: 'បានរក្សាទុកដែនគ្របដណ្ដប់។' },
  'roles.system': {
    en: 'A default role cannot be deleted; it can be reset to its defaults.',
    kh: 'តួនាទីលំនាំដើមមិនអាចលុបបានទេ ប៉ុន្តែអាចកំណត់ឡើងវិញតាមលំនាំដើមបាន។',
  },
  'roles.not_system': {
    en: 'Only a default role can be reset to its defaults.',
    kh: 'មានតែតួនាទីលំនាំដើមប៉ុណ្ណោះដែលអាចកំណត់ឡើងវិញតាមលំនាំដើមបាន។',
  },
  'roles.reset': { en: 'Role reset to its defaults.', kh: 'បានកំណត់តួនាទីឡើងវិញតាមលំនាំដើម។' },
  'roles.members_saved': { en: 'Members saved.', kh: 'បានរក្សាទុកសមាជិក។' },
  'validation.permission': { en: 'Unknown permission.', kh: 'សិទ្ធិមិនស្គាល់។' },
  'validation.landing': {
    en: 'This role cannot open that screen: give it the permission first, or choose another.',
    kh: 'តួនាទីនេះមិនអាចបើកអេក្រង់នោះបានទេ៖ សូមផ្ដល់សិទ្ធិជាមុនសិន ឬជ្រើសរើសអេក្រង់ផ្សេង។',
  },
  'auth.password_changed': {
    en: 'Your password has been changed.',
    kh: 'ពាក្យសម្ងាត់របស់អ្នកត្រូវបានផ្លាស់ប្ដូរ។',
  },
  'auth.current_password': {
    en: 'The current password is incorrect.',
    kh: 'ពាក្យសម្ងាត់បច្ចុប្បន្នមិនត្រឹមត្រូវ។',
  },
  // authority never grows by itself
  'users.beyond_own': {
    en: 'You can only manage users who hold no permission you do not hold yourself and who work only in your stores.',
    kh: 'អ្នកអាចគ្រប់គ្រងបានតែអ្នកប្រើប្រាស់ដែលគ្មានសិទ្ធិលើសពីសិទ្ធិរបស់អ្នក និងធ្វើការតែក្នុងហាងរបស់អ្នកប៉ុណ្ណោះ។',
  },
  'users.administrator_only': {
    en: 'Only an administrator can change an administrator.',
    kh: 'មានតែអ្នកគ្រប់គ្រងប្រព័ន្ធប៉ុណ្ណោះដែលអាចកែប្រែអ្នកគ្រប់គ្រងប្រព័ន្ធបាន។',
  },
  'roles.beyond_own': {
    en: 'You can only change, give or take a role whose every permission you hold yourself.',
    kh: 'អ្នកអាចកែប្រែ ផ្ដល់ ឬដកតួនាទីបាន លុះត្រាតែអ្នកមានគ្រប់សិទ្ធិទាំងអស់របស់តួនាទីនោះ។',
  },
  'validation.permission_not_held': {
    en: 'You can only give permissions you hold yourself.',
    kh: 'អ្នកអាចផ្ដល់បានតែសិទ្ធិដែលអ្នកមានផ្ទាល់ប៉ុណ្ណោះ។',
  },
  'validation.role_not_held': {
    en: 'You can only give or take roles whose every permission you hold yourself.',
    kh: 'អ្នកអាចផ្ដល់ ឬដកបានតែតួនាទីដែលអ្នកមានគ្រប់សិទ្ធិរបស់វាប៉ុណ្ណោះ។',
  },
  'validation.areas_not_held': {
    en: 'You can only give areas you cover yourself.',
    kh: 'អ្នកអាចផ្ដល់បានតែតំបន់ដែលអ្នកគ្របដណ្ដប់ផ្ទាល់ប៉ុណ្ណោះ។',
  },
  'validation.password_weak': {
    en: 'This password is too easy to guess: use a longer one, such as a few unrelated words, and not your name.',
    kh: 'ពាក្យសម្ងាត់នេះងាយទាយពេក៖ សូមប្រើពាក្យសម្ងាត់វែងជាងនេះ ដូចជាពាក្យច្រើនដែលមិនទាក់ទងគ្នា ហើយកុំប្រើឈ្មោះរបស់អ្នក។',
  },
  'auth.password_change_required': {
    en: 'Choose a new password before you go on.',
    kh: 'សូមជ្រើសរើសពាក្យសម្ងាត់ថ្មីជាមុនសិន មុននឹងបន្ត។',
  },

  // cash drawer shifts
  'entity.shift': { en: 'Shift', kh: 'វេន' },
  'shift.state': {
    en: 'Shift {number} is {status}: it cannot be {action}.',
    kh: 'វេន {number} ស្ថិតក្នុងស្ថានភាព {status}៖ មិនអាច{action}បានទេ។',
  },
  'status.open': { en: 'open', kh: 'កំពុងបើក' },
  // stock counts (issue 28): counted with phones, blind, approved by a manager
  'entity.count': { en: 'Stock count', kh: 'ការរាប់ស្តុក' },
  'count.state': {
    en: 'Count {number} is {status}: it cannot be {action}.',
    kh: 'ការរាប់ស្តុក {number} ស្ថិតក្នុងស្ថានភាព {status}៖ មិនអាច{action}បានទេ។',
  },
  'status.submitted': { en: 'submitted', kh: 'បានបញ្ជូន' },
  'status.approved': { en: 'approved', kh: 'បានអនុម័ត' },
  'action.counted': { en: 'counted', kh: 'រាប់' },
  'action.submitted': { en: 'submitted', kh: 'បញ្ជូន' },
  'action.reopened': { en: 'sent back for counting', kh: 'ផ្ញើត្រឡប់ទៅរាប់ម្ដងទៀត' },
  'action.approved': { en: 'approved', kh: 'អនុម័ត' },
  'count.unknown_code': {
    en: 'No product has the barcode or SKU “{code}”.',
    kh: 'គ្មានផលិតផលណាមានបាកូដ ឬ SKU «{code}» ទេ។',
  },
  'count.counted_elsewhere': {
    en: 'This product is already on count {number} of this store: count it there, or finish that count first.',
    kh: 'ផលិតផលនេះមាននៅក្នុងការរាប់ស្តុក {number} របស់ហាងនេះរួចហើយ៖ សូមរាប់វានៅទីនោះ ឬបញ្ចប់ការរាប់នោះជាមុនសិន។',
  },
  'count.add_one': { en: 'Count at least one.', kh: 'សូមរាប់យ៉ាងហោចណាស់មួយ។' },
  'count.counted': { en: '{product}: {counted} counted.', kh: '{product}៖ រាប់បាន {counted}។' },
  'count.submitted': {
    en: 'Count submitted: a manager reviews and approves it.',
    kh: 'បានបញ្ជូនការរាប់ស្តុក៖ អ្នកគ្រប់គ្រងនឹងពិនិត្យ និងអនុម័ត។',
  },
  'count.reopened': { en: 'Count sent back for counting.', kh: 'បានផ្ញើការរាប់ស្តុកត្រឡប់ទៅរាប់ម្ដងទៀត។' },
  'count.approved': {
    en: 'Count approved: the differences are posted to the stock.',
    kh: 'បានអនុម័តការរាប់ស្តុក៖ ភាពខុសគ្នាត្រូវបានកត់ចូលស្តុកហើយ។',
  },
  'count.cancelled': { en: 'Count cancelled.', kh: 'បានបោះបង់ការរាប់ស្តុក។' },
  'status.closed': { en: 'closed', kh: 'បានបិទ' },
  'action.closed': { en: 'closed', kh: 'បិទ' },
  'shift.opened': { en: 'Shift opened.', kh: 'បានបើកវេន។' },
  'shift.pay_in': { en: 'Pay-in recorded.', kh: 'បានកត់ត្រាការដាក់ប្រាក់ចូល។' },
  'shift.pay_out': { en: 'Pay-out recorded.', kh: 'បានកត់ត្រាការដកប្រាក់ចេញ។' },
  'shift.closed': { en: 'Shift closed.', kh: 'បានបិទវេន។' },
  'shift.user_open': {
    en: 'You already have an open shift ({number}): close it first.',
    kh: 'អ្នកមានវេនកំពុងបើករួចហើយ ({number})៖ សូមបិទវាជាមុនសិន។',
  },
  'shift.till_open': {
    en: 'This till already has an open shift ({number}).',
    kh: 'កន្លែងគិតលុយនេះមានវេនកំពុងបើករួចហើយ ({number})។',
  },
  'shift.required': {
    en: 'Open a shift at this store before selling.',
    kh: 'សូមបើកវេននៅហាងនេះជាមុនសិន មុននឹងលក់។',
  },
  'shift.required_cash': {
    en: 'Open a shift at this store before taking or giving cash.',
    kh: 'សូមបើកវេននៅហាងនេះជាមុនសិន មុននឹងទទួល ឬផ្ដល់សាច់ប្រាក់។',
  },
  'shift.pay_out_over': {
    en: 'This shift’s pay-outs would come to {amount}, at or beyond the threshold of {threshold}: a manager’s approval is needed.',
    kh: 'ការដកប្រាក់ចេញនៃវេននេះនឹងដល់ {amount} ស្មើ ឬលើសកម្រិត {threshold}៖ ត្រូវការការអនុម័តពីអ្នកគ្រប់គ្រង។',
  },
  'shift.denomination': {
    en: 'This note is not one of the notes in the settings.',
    kh: 'ក្រដាសប្រាក់នេះមិនមាននៅក្នុងបញ្ជីក្រដាសប្រាក់នៃការកំណត់ទេ។',
  },
  'shift.not_yours': {
    en: 'This is another cashier’s shift.',
    kh: 'នេះជាវេនរបស់អ្នកគិតលុយផ្សេង។',
  },
  'shift.short_drawer': {
    en: 'The drawer does not hold that much in this currency.',
    kh: 'ថតប្រាក់មិនមានប្រាក់ច្រើនម្ល៉េះក្នុងរូបិយប័ណ្ណនេះទេ។',
  },
  'settings.shift_saved': { en: 'Shift settings saved.', kh: 'បានរក្សាទុកការកំណត់វេន។' },
  // the X / Z report as an A4 PDF (shifts.pdf.ts), in the reader's language
  'shift.pdf.x': { en: 'X report (mid-shift)', kh: 'របាយការណ៍ X (កណ្ដាលវេន)' },
  'shift.pdf.z': { en: 'Z report (end of shift)', kh: 'របាយការណ៍ Z (បិទវេន)' },
  'shift.pdf.usd': { en: 'Dollar drawer', kh: 'ថតប្រាក់ដុល្លារ' },
  'shift.pdf.khr': { en: 'Riel drawer', kh: 'ថតប្រាក់រៀល' },
  'shift.pdf.float': { en: 'Float', kh: 'ប្រាក់ដើមក្នុងថត' },
  'shift.pdf.cash_in': { en: 'Cash received', kh: 'សាច់ប្រាក់ទទួលបាន' },
  'shift.pdf.change_out': { en: 'Change given', kh: 'ប្រាក់អាប់' },
  'shift.pdf.refunds': { en: 'Refunds', kh: 'ប្រាក់សងវិញ' },
  'shift.pdf.pay_ins': { en: 'Pay-ins', kh: 'ដាក់ប្រាក់ចូល' },
  'shift.pdf.pay_outs': { en: 'Pay-outs', kh: 'ដកប្រាក់ចេញ' },
  'shift.pdf.expected': { en: 'Expected', kh: 'ចំនួនគួរមាន' },
  'shift.pdf.counted': { en: 'Counted', kh: 'ចំនួនរាប់បាន' },
  'shift.pdf.difference': { en: 'Difference', kh: 'ប្រាក់លើស/ខ្វះ' },
  'shift.pdf.number': { en: 'Shift', kh: 'វេន' },
  'shift.pdf.store': { en: 'Store', kh: 'ហាង' },
  'shift.pdf.till': { en: 'Till', kh: 'កន្លែងគិតលុយ' },
  'shift.pdf.cashier': { en: 'Cashier', kh: 'អ្នកគិតលុយ' },
  'shift.pdf.opened': { en: 'Opened', kh: 'បើកនៅ' },
  'shift.pdf.closed': { en: 'Closed', kh: 'បិទនៅ' },
  'shift.pdf.printed': { en: 'Printed', kh: 'បោះពុម្ពនៅ' },
  'shift.pdf.sales': { en: 'Sales', kh: 'ចំនួនការលក់' },
  'shift.pdf.sales_total': { en: 'Sales total', kh: 'ការលក់សរុប' },
  'shift.pdf.payments': { en: 'Payments by method', kh: 'តាមវិធីបង់ប្រាក់' },
  'shift.pdf.movements': { en: 'Pay-ins and pay-outs', kh: 'ការដាក់ប្រាក់ចូល និងដកប្រាក់ចេញ' },
  'shift.pdf.pay_in': { en: 'Pay-in', kh: 'ដាក់ប្រាក់ចូល' },
  'shift.pdf.pay_out': { en: 'Pay-out', kh: 'ដកប្រាក់ចេញ' },
  'shift.pdf.when': { en: 'When', kh: 'ពេលវេលា' },
  'shift.pdf.reason': { en: 'Reason', kh: 'មូលហេតុ' },
  'shift.pdf.by': { en: 'By', kh: 'ដោយ' },
  'shift.pdf.amount': { en: 'Amount', kh: 'ចំនួនទឹកប្រាក់' },
  'shift.pdf.approved_by': { en: 'Approved by', kh: 'អនុម័តដោយ' },
  'shift.pdf.signature': { en: 'Signature', kh: 'ហត្ថលេខា' },
  'shift.pdf_unavailable': {
    en: 'PDF is not available: Chromium is not installed on the server. Print the report on a receipt printer instead.',
    kh: 'មិនអាចបង្កើត PDF បានទេ៖ ប្រព័ន្ធមិនមាន Chromium។ សូមបោះពុម្ពរបាយការណ៍លើម៉ាស៊ីនបោះពុម្ពបង្កាន់ដៃជំនួសវិញ។',
  },

  // generic (spec section 8)
  'error.not_found': { en: 'Not found', kh: 'រកមិនឃើញ' },
  'error.server': { en: 'An error occurred. Please try again.', kh: 'មានបញ្ហាកើតឡើង។ សូមព្យាយាមម្ដងទៀត។' },
  'error.too_many_requests': {
    en: 'Too many requests. Try again in {seconds} seconds.',
    kh: 'សំណើច្រើនពេក។ សូមព្យាយាមម្ដងទៀតក្នុងរយៈពេល {seconds} វិនាទី។',
  },
  'error.payload_too_large': { en: 'The request is too large.', kh: 'សំណើធំពេក។' },
  'error.bad_request': { en: 'The request could not be read.', kh: 'មិនអាចអានសំណើបានទេ។' },
  // credit
  'credit.over_limit': {
    en: '{customer} would owe {owed}, more than their credit limit of {limit}: a manager’s approval is needed.',
    kh: '{customer} នឹងជំពាក់ {owed} លើសពីកម្រិតឥណទាន {limit}៖ ត្រូវការការអនុម័តពីអ្នកគ្រប់គ្រង។',
  },
  'credit.no_limit': {
    en: '{customer} has no credit limit: they would owe {owed}, and a manager’s approval is needed.',
    kh: '{customer} មិនមានកម្រិតឥណទានទេ៖ នឹងជំពាក់ {owed} ហើយត្រូវការការអនុម័តពីអ្នកគ្រប់គ្រង។',
  },
  'credit.over_paid': {
    en: 'More than the orders owe ({due}).',
    kh: 'លើសពីចំនួនដែលការលក់នៅជំពាក់ ({due})។',
  },
  'credit.nothing_owed': { en: 'This customer owes nothing.', kh: 'អតិថិជននេះមិនជំពាក់អ្វីទេ។' },
  'credit.not_open': {
    en: 'Not an unpaid order of this customer.',
    kh: 'មិនមែនជាការលក់ដែលមិនទាន់បង់គ្រប់របស់អតិថិជននេះទេ។',
  },
  'credit.supplier_over_paid': {
    en: 'More than the purchases owe ({due}).',
    kh: 'លើសពីចំនួនដែលការទិញនៅជំពាក់ ({due})។',
  },
  'credit.supplier_nothing_owed': { en: 'Nothing is owed to this supplier.', kh: 'មិនជំពាក់អ្វីអ្នកផ្គត់ផ្គង់នេះទេ។' },
  'credit.supplier_not_open': {
    en: 'Not an unpaid purchase of this supplier.',
    kh: 'មិនមែនជាការទិញដែលមិនទាន់បង់គ្រប់របស់អ្នកផ្គត់ផ្គង់នេះទេ។',
  },
  'credit.supplier_paid': {
    en: 'Payment of {amount} recorded on {count} purchases.',
    kh: 'បានកត់ត្រាការបង់ប្រាក់ {amount} លើការទិញ {count}។',
  },
  'credit.paid': { en: 'Payment {number} recorded.', kh: 'បានកត់ត្រាការបង់ប្រាក់ {number}។' },
  'credit.pdf_unavailable': {
    en: 'PDF is not available: Chromium is not installed on the server. Print the page instead.',
    kh: 'មិនអាចបង្កើត PDF បានទេ៖ ប្រព័ន្ធមិនមាន Chromium។ សូមបោះពុម្ពទំព័រនេះជំនួសវិញ។',
  },
  'statement.customer': { en: 'Customer statement', kh: 'របាយការណ៍គណនីអតិថិជន' },
  'statement.supplier': { en: 'Supplier statement', kh: 'របាយការណ៍គណនីអ្នកផ្គត់ផ្គង់' },
  'statement.period': { en: 'Period', kh: 'រយៈពេល' },
  'statement.opening': { en: 'Opening balance', kh: 'សមតុល្យដើមគ្រា' },
  'statement.closing': { en: 'Closing balance', kh: 'សមតុល្យចុងគ្រា' },
  'statement.date': { en: 'Date', kh: 'កាលបរិច្ឆេទ' },
  'statement.document': { en: 'Document', kh: 'ឯកសារ' },
  'statement.debit': { en: 'Owed', kh: 'ជំពាក់' },
  'statement.credit': { en: 'Paid or returned', kh: 'បានបង់ ឬត្រឡប់' },
  'statement.balance': { en: 'Balance', kh: 'សមតុល្យ' },
  'statement.kind.sale': { en: 'Sale', kh: 'ការលក់' },
  'statement.kind.payment': { en: 'Payment', kh: 'ការបង់ប្រាក់' },
  'statement.kind.return': { en: 'Return', kh: 'ទំនិញត្រឡប់' },
  'statement.kind.refund': { en: 'Refund', kh: 'ប្រាក់សងវិញ' },
  'statement.kind.purchase': { en: 'Purchase', kh: 'ការទិញចូល' },
  'statement.sales': { en: 'Sales', kh: 'ការលក់' },
  'statement.purchases': { en: 'Purchases', kh: 'ការទិញចូល' },
  'statement.payments': { en: 'Payments', kh: 'ការបង់ប្រាក់' },
  'statement.returns': { en: 'Returns', kh: 'ទំនិញត្រឡប់' },
  'statement.refunds': { en: 'Refunds', kh: 'ប្រាក់សងវិញ' },
  'statement.none': { en: 'Nothing in this period.', kh: 'គ្មានអ្វីក្នុងរយៈពេលនេះទេ។' },
  ...taxMessages,
  ...labelMessages,
} as const satisfies Record<string, Record<Locale, string>>;

export type MessageKey = keyof typeof messages;
/**
 * A message's parameter: a text (a name, a document number: shown as it is), a number (a count,
 * seconds, a limit) or an amount (`{ usd: cents }`, `{ khr: riel }`), both written when the message
 * is, in its numerals.
 */
export type MessageParam = string | number | { usd: number } | { khr: number };
export type MessageParams = Record<string, MessageParam>;

function paramText(value: MessageParam, numerals: Numerals): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return shownDigits(String(value), numerals);
  return 'usd' in value ? formatUsd(value.usd, numerals) : formatKhr(value.khr, numerals);
}

/**
 * The message in the locale, with `{name}` placeholders filled in, its figures in `numerals`: the
 * template's own digits, the numbers given (a count, seconds, a minimum) and the amounts given
 * (`{ usd }`, `{ khr }`: money.ts formatters) go through numerals.ts; a text given (a name, a
 * document number) stays as it is: a figure goes in as a number or an amount, never pre-written. The web's default is the page's numerals (`setNumerals`); the server, which never sets them,
 * passes the request's (http/locale.ts `say`: Khmer answers with the `khmer_numerals` setting on).
 */
export function translate(
  key: MessageKey,
  locale: Locale,
  params?: MessageParams,
  numerals: Numerals = currentNumerals(),
): string {
  const template = shownDigits(messages[key][locale], numerals);
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : paramText(value, numerals);
  });
}
