import type { Locale } from './locales.ts';

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
    kh: 'ឯកតាមូលដ្ឋានមានចំនួន 1; ឯកតាដែលផ្សំពីឯកតាមូលដ្ឋានត្រូវមានយ៉ាងហោចណាស់ 2។',
  },
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
  'validation.failed': { en: 'The given data was invalid.', kh: 'ទិន្នន័យដែលបានផ្ដល់មិនត្រឹមត្រូវ។' },

  // authentication (spec sections 4 and 8)
  'auth.failed': { en: 'Username or password is incorrect.', kh: 'ឈ្មោះអ្នកប្រើ ឬពាក្យសម្ងាត់មិនត្រឹមត្រូវ។' },
  'auth.disabled': {
    en: 'This account is disabled. Ask an administrator.',
    kh: 'គណនីនេះត្រូវបានបិទ។ សូមទាក់ទងអ្នកគ្រប់គ្រងប្រព័ន្ធ។',
  },
  'auth.throttled': {
    en: 'Too many failed sign-in attempts. Try again in {seconds} seconds.',
    kh: 'ការចូលបរាជ័យច្រើនដងពេក។ សូមព្យាយាមម្ដងទៀតក្នុងរយៈពេល {seconds} វិនាទី។',
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

  // records (spec section 8: each entity has success messages for created, updated, deleted, restored)
  'resource.created': { en: '{entity} created.', kh: 'បានបង្កើត{entity}ដោយជោគជ័យ។' },
  'resource.updated': { en: '{entity} updated.', kh: 'បានកែប្រែ{entity}ដោយជោគជ័យ។' },
  'resource.deleted': { en: '{entity} deleted.', kh: 'បានលុប{entity}ដោយជោគជ័យ។' },
  'resource.restored': { en: '{entity} restored.', kh: 'បានស្ដារ{entity}ឡើងវិញដោយជោគជ័យ។' },
  'resource.in_use': {
    en: '{entity} cannot be deleted: {count} {dependents} still use it.',
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
  'entity.province': { en: 'Province', kh: 'ខេត្ត' },
  'entity.district': { en: 'District', kh: 'ស្រុក' },
  'entity.commune': { en: 'Commune', kh: 'ឃុំ' },
  'entity.village': { en: 'Village', kh: 'ភូមិ' },
  'entity.operational_district': { en: 'Operational district', kh: 'ស្រុកប្រតិបត្តិ' },
  'entity.health_facility': { en: 'Health facility', kh: 'មូលដ្ឋានសុខាភិបាល' },
  'entity.districts': { en: 'districts', kh: 'ស្រុក' },
  'entity.communes': { en: 'communes', kh: 'ឃុំ' },
  'entity.villages': { en: 'villages', kh: 'ភូមិ' },
  'entity.operational_districts': { en: 'operational districts', kh: 'ស្រុកប្រតិបត្តិ' },
  'entity.health_facilities': { en: 'health facilities', kh: 'មូលដ្ឋានសុខាភិបាល' },
  'entity.store': { en: 'Store', kh: 'ហាង' },
  'entity.customer': { en: 'Customer', kh: 'អតិថិជន' },
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

  // generic (spec section 8)
  'error.not_found': { en: 'Not found', kh: 'រកមិនឃើញ' },
  'error.server': { en: 'An error occurred. Please try again.', kh: 'មានបញ្ហាកើតឡើង។ សូមព្យាយាមម្ដងទៀត។' },
  'error.too_many_requests': {
    en: 'Too many requests. Try again in {seconds} seconds.',
    kh: 'សំណើច្រើនពេក។ សូមព្យាយាមម្ដងទៀតក្នុងរយៈពេល {seconds} វិនាទី។',
  },
  'error.payload_too_large': { en: 'The request is too large.', kh: 'សំណើធំពេក។' },
  'error.bad_request': { en: 'The request could not be read.', kh: 'មិនអាចអានសំណើបានទេ។' },
} as const satisfies Record<string, Record<Locale, string>>;

export type MessageKey = keyof typeof messages;
export type MessageParams = Record<string, string | number>;

/** The message in the locale, with `{name}` placeholders filled in. */
export function translate(key: MessageKey, locale: Locale, params?: MessageParams): string {
  const template: string = messages[key][locale];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
