/**
 * The demo depot the sample data loads: a small Cambodian grocery wholesaler with Khmer and
 * English names. Everything here is fixed; the sales are drawn from it with a seeded generator
 * (samples.load.ts), so two loads make the same depot, dated back from the day of the load.
 */

/** The `sample_loads` row of the demo depot: its key lets one load claim it at a time. */
export const SAMPLE_LOAD = 'demo';

export const SAMPLE_CATEGORIES = [
  { key: 'drinks', name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ', colour: '#1677ff' },
  { key: 'rice', name_en: 'Rice & noodles', name_kh: 'អង្ករ និងមី', colour: '#d48806' },
  { key: 'condiments', name_en: 'Condiments', name_kh: 'គ្រឿងទេស', colour: '#cf1322' },
  { key: 'snacks', name_en: 'Snacks', name_kh: 'នំចំណី', colour: '#d4380d' },
  { key: 'household', name_en: 'Household', name_kh: 'សម្ភារៈប្រើប្រាស់ក្នុងផ្ទះ', colour: '#08979c' },
  { key: 'care', name_en: 'Personal care', name_kh: 'ផលិតផលថែរក្សាខ្លួន', colour: '#722ed1' },
] as const;
export type SampleCategory = (typeof SAMPLE_CATEGORIES)[number]['key'];

export const SAMPLE_BRANDS = [
  { key: 'mekong', name: 'Mekong Springs', description: 'Drinking water and soft drinks' },
  { key: 'tonle', name: 'Tonle Farms', description: 'Rice, noodles and dried fruit' },
  { key: 'kampot', name: 'Kampot Gold', description: 'Pepper, sauces and palm sugar' },
  { key: 'angkor', name: 'Angkor Harvest', description: 'Snacks and nuts' },
  { key: 'lotus', name: 'Lotus Home', description: 'Cleaning and personal care' },
  { key: 'sabay', name: 'Sabay Coffee', description: 'Coffee and tea in cans' },
] as const;
export type SampleBrand = (typeof SAMPLE_BRANDS)[number]['key'];

/** Base units, then a carton of 24 cans (bought by the carton, sold by the can or the carton). */
export const SAMPLE_UNITS = [
  { key: 'bottle', name_en: 'Bottle', name_kh: 'ដប', short_name: 'btl' },
  { key: 'can', name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' },
  { key: 'pack', name_en: 'Pack', name_kh: 'កញ្ចប់', short_name: 'pk' },
  { key: 'kg', name_en: 'Kilogram', name_kh: 'គីឡូក្រាម', short_name: 'kg' },
  { key: 'piece', name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' },
  { key: 'carton', name_en: 'Carton of 24', name_kh: 'កេស (24)', short_name: 'ctn', base: 'can', factor: 24 },
] as const;
export type SampleUnit = (typeof SAMPLE_UNITS)[number]['key'];

export interface SampleProduct {
  sku: string;
  name_en: string;
  name_kh: string;
  category: SampleCategory;
  brand: SampleBrand;
  unit: SampleUnit;
  /** Selling price and cost, US cents per base unit. */
  price: number;
  cost: number;
  reorder: number;
  /** How many base units a day the two stores sell, about. */
  daily: number;
  /** Bought by the carton. */
  carton?: boolean;
}

export const SAMPLE_PRODUCTS: readonly SampleProduct[] = [
  {
    sku: 'SMPL-WATER-05',
    name_en: 'Mineral water 500 ml',
    name_kh: 'ទឹកសុទ្ធ 500 មីលីលីត្រ',
    category: 'drinks',
    brand: 'mekong',
    unit: 'bottle',
    price: 50,
    cost: 30,
    reorder: 48,
    daily: 14,
  },
  {
    sku: 'SMPL-WATER-15',
    name_en: 'Mineral water 1.5 l',
    name_kh: 'ទឹកសុទ្ធ 1.5 លីត្រ',
    category: 'drinks',
    brand: 'mekong',
    unit: 'bottle',
    price: 100,
    cost: 60,
    reorder: 24,
    daily: 8,
  },
  {
    sku: 'SMPL-COFFEE',
    name_en: 'Iced coffee, can',
    name_kh: 'កាហ្វេទឹកកក កំប៉ុង',
    category: 'drinks',
    brand: 'sabay',
    unit: 'can',
    price: 90,
    cost: 55,
    reorder: 24,
    daily: 10,
    carton: true,
  },
  {
    sku: 'SMPL-LEMONTEA',
    name_en: 'Lemon tea, can',
    name_kh: 'តែក្រូចឆ្មា កំប៉ុង',
    category: 'drinks',
    brand: 'sabay',
    unit: 'can',
    price: 75,
    cost: 45,
    reorder: 24,
    daily: 8,
    carton: true,
  },
  {
    sku: 'SMPL-COCONUT',
    name_en: 'Coconut water',
    name_kh: 'ទឹកដូង',
    category: 'drinks',
    brand: 'mekong',
    unit: 'bottle',
    price: 120,
    cost: 70,
    reorder: 12,
    daily: 4,
  },
  {
    sku: 'SMPL-RICE-5KG',
    name_en: 'Jasmine rice 5 kg',
    name_kh: 'អង្ករផ្កាម្លិះ 5 គីឡូក្រាម',
    category: 'rice',
    brand: 'tonle',
    unit: 'pack',
    price: 650,
    cost: 480,
    reorder: 10,
    daily: 3,
  },
  {
    sku: 'SMPL-RICE-KG',
    name_en: 'Fragrant rice, loose',
    name_kh: 'អង្ករក្រអូប',
    category: 'rice',
    brand: 'tonle',
    unit: 'kg',
    price: 125,
    cost: 90,
    reorder: 25,
    daily: 6,
  },
  {
    sku: 'SMPL-NOODLES',
    name_en: 'Instant noodles',
    name_kh: 'មីកញ្ចប់',
    category: 'rice',
    brand: 'tonle',
    unit: 'pack',
    price: 35,
    cost: 20,
    reorder: 60,
    daily: 16,
  },
  {
    sku: 'SMPL-KUYTEAV',
    name_en: 'Rice noodles',
    name_kh: 'គុយទាវ',
    category: 'rice',
    brand: 'tonle',
    unit: 'pack',
    price: 150,
    cost: 95,
    reorder: 12,
    daily: 3,
  },
  {
    sku: 'SMPL-FISHSAUCE',
    name_en: 'Fish sauce',
    name_kh: 'ទឹកត្រី',
    category: 'condiments',
    brand: 'kampot',
    unit: 'bottle',
    price: 180,
    cost: 110,
    reorder: 12,
    daily: 3,
  },
  {
    sku: 'SMPL-PEPPER',
    name_en: 'Kampot pepper 100 g',
    name_kh: 'ម្រេចកំពត 100 ក្រាម',
    category: 'condiments',
    brand: 'kampot',
    unit: 'pack',
    price: 450,
    cost: 280,
    reorder: 6,
    daily: 2,
  },
  {
    sku: 'SMPL-PALMSUGAR',
    name_en: 'Palm sugar',
    name_kh: 'ស្ករត្នោត',
    category: 'condiments',
    brand: 'kampot',
    unit: 'kg',
    price: 300,
    cost: 200,
    reorder: 8,
    daily: 2,
  },
  {
    sku: 'SMPL-SOY',
    name_en: 'Soy sauce',
    name_kh: 'ទឹកស៊ីអ៊ីវ',
    category: 'condiments',
    brand: 'kampot',
    unit: 'bottle',
    price: 140,
    cost: 85,
    reorder: 12,
    daily: 2,
  },
  {
    sku: 'SMPL-MANGO',
    name_en: 'Dried mango',
    name_kh: 'ស្វាយក្រៀម',
    category: 'snacks',
    brand: 'tonle',
    unit: 'pack',
    price: 350,
    cost: 220,
    reorder: 10,
    daily: 2,
  },
  {
    sku: 'SMPL-CASHEW',
    name_en: 'Cashew nuts',
    name_kh: 'គ្រាប់ស្វាយចន្ទី',
    category: 'snacks',
    brand: 'angkor',
    unit: 'pack',
    price: 500,
    cost: 330,
    reorder: 10,
    daily: 2,
  },
  {
    sku: 'SMPL-COOKIES',
    name_en: 'Butter cookies',
    name_kh: 'នំខូឃី',
    category: 'snacks',
    brand: 'angkor',
    unit: 'pack',
    price: 120,
    cost: 70,
    reorder: 20,
    daily: 5,
  },
  {
    sku: 'SMPL-DISHSOAP',
    name_en: 'Dish soap',
    name_kh: 'ទឹកលាងចាន',
    category: 'household',
    brand: 'lotus',
    unit: 'bottle',
    price: 160,
    cost: 100,
    reorder: 10,
    daily: 2,
  },
  {
    sku: 'SMPL-LAUNDRY',
    name_en: 'Laundry powder',
    name_kh: 'ម្សៅសាប៊ូបោកខោអាវ',
    category: 'household',
    brand: 'lotus',
    unit: 'pack',
    price: 280,
    cost: 190,
    reorder: 10,
    daily: 2,
  },
  {
    sku: 'SMPL-SOAP',
    name_en: 'Bath soap',
    name_kh: 'សាប៊ូដុំ',
    category: 'care',
    brand: 'lotus',
    unit: 'piece',
    price: 60,
    cost: 35,
    reorder: 24,
    daily: 4,
  },
  {
    sku: 'SMPL-TOOTHPASTE',
    name_en: 'Toothpaste',
    name_kh: 'ថ្នាំដុសធ្មេញ',
    category: 'care',
    brand: 'lotus',
    unit: 'piece',
    price: 130,
    cost: 80,
    reorder: 12,
    daily: 3,
  },
];

/** Who supplies what: each supplier's categories. */
export const SAMPLE_SUPPLIERS = [
  {
    key: 'mekong',
    name: 'Mekong Trading Co., Ltd.',
    type: 'company',
    phone: '023 880 112',
    address: 'Street 271, Phnom Penh',
    categories: ['drinks'],
  },
  {
    key: 'mill',
    name: 'រោងម៉ាស៊ីនកិនស្រូវ បាត់ដំបង',
    type: 'company',
    phone: '053 952 300',
    address: 'ក្រុងបាត់ដំបង',
    categories: ['rice', 'condiments'],
  },
  {
    key: 'wholesale',
    name: 'Phnom Penh Wholesale',
    type: 'company',
    phone: '012 456 789',
    address: 'Orussey Market, Phnom Penh',
    categories: ['snacks', 'household', 'care'],
  },
] as const;

export const SAMPLE_CUSTOMERS = [
  { name: 'សុខ ដារ៉ា', phone: '012 345 678', address: 'ភ្នំពេញ' },
  { name: 'Chan Sophal', phone: '017 220 345', address: 'Toul Kork, Phnom Penh' },
  { name: 'ហាងលក់ទំនិញ ស្រីមុំ', phone: '092 600 118', address: 'ផ្សារដើមគរ' },
  { name: 'Riverside Guesthouse', phone: '063 760 441', address: 'Siem Reap' },
  { name: 'លឹម ស្រីពៅ', phone: '086 514 907', address: 'សៀមរាប' },
  { name: 'Kim Heng Restaurant', phone: '011 903 552', address: 'Sisowath Quay, Phnom Penh' },
] as const;

/** The second store the sales are shared with (the first is the depot's own). */
export const SAMPLE_STORE = {
  name: 'សាខាសៀមរាប · Siem Reap branch',
  code: 'SAMPLE-SR',
  phone: '063 963 100',
  address: 'Sivatha Boulevard, Siem Reap',
};

/** The cashier the sample sales are made by: inactive, so no one signs in with it. */
export const SAMPLE_USER = { name: 'sample.cashier', full_name: 'Sample cashier · អ្នកគិតលុយគំរូ' };
