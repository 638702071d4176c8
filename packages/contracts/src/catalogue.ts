import { z } from 'zod';
import { NAME_MAX, NAME_MIN_SHORT, UNIT_DECIMALS_MAX } from './constants.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';

/**
 * Catalogue reference lists. Name lengths (spec: 3, 5 and 50): brand, category and sub-category
 * names 3 to 50; unit names 1 to 50, because Khmer unit words are short ("ដប", bottle, is two
 * characters).
 */
const name = z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX);
/** Absent, null or blank all store null, so PUT replaces the field like every other. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));
const status = z.enum(RECORD_STATUSES).default('active');

export const brandInput = z.object({
  name,
  description: optionalText(255),
  status,
});
export const brand = z.object({
  ...recordFields,
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(RECORD_STATUSES),
});
export type Brand = z.infer<typeof brand>;
export type BrandInput = z.input<typeof brandInput>;

export const categoryInput = z.object({
  name_en: name,
  name_kh: name,
  description: optionalText(255),
  status,
});
export const category = z.object({
  ...recordFields,
  name_en: z.string(),
  name_kh: z.string(),
  description: z.string().nullable(),
  status: z.enum(RECORD_STATUSES),
  sub_categories_count: z.number().int(),
});
export type Category = z.infer<typeof category>;
export type CategoryInput = z.input<typeof categoryInput>;

export const subCategoryInput = z.object({
  category_id: z.coerce.number().int().min(1),
  name_en: name,
  name_kh: name,
  status,
});
export const subCategory = z.object({
  ...recordFields,
  category_id: z.number().int(),
  category_name_en: z.string(),
  category_name_kh: z.string(),
  name_en: z.string(),
  name_kh: z.string(),
  status: z.enum(RECORD_STATUSES),
});
export type SubCategory = z.infer<typeof subCategory>;
export type SubCategoryInput = z.input<typeof subCategoryInput>;

const unitName = z.string().trim().min(1).max(NAME_MAX);

/**
 * A unit is a base unit (piece, kilogram) or N of a base unit (carton = 24 pieces). Products are
 * stocked in their base unit and bought or sold in any unit defined on it; one level only.
 */
export const unitInput = z
  .object({
    name_en: unitName,
    name_kh: unitName,
    short_name: z.string().trim().min(1).max(10),
    base_unit_id: z.coerce
      .number()
      .int()
      .min(1)
      .nullish()
      .transform((v) => v ?? null),
    factor: z.coerce.number().int().min(1).max(1_000_000).default(1),
    /**
     * Decimals a quantity of it takes (kg: 3, m: 2; pieces 0): quantities are kept in its
     * smallest step (grams). Only a base unit has them (a sack is sold whole).
     */
    decimals: z.coerce.number().int().min(0).max(UNIT_DECIMALS_MAX).default(0),
    status,
  })
  .refine((u) => (u.base_unit_id ? u.factor >= 2 : u.factor === 1), {
    path: ['factor'],
    params: { message: 'validation.unit_factor' },
  })
  .refine((u) => !u.base_unit_id || u.decimals === 0, {
    path: ['decimals'],
    params: { message: 'validation.unit_decimals' },
  });
export const unit = z.object({
  ...recordFields,
  name_en: z.string(),
  name_kh: z.string(),
  short_name: z.string(),
  base_unit_id: z.number().int().nullable(),
  base_unit_name_en: z.string().nullable(),
  base_unit_name_kh: z.string().nullable(),
  factor: z.number().int(),
  decimals: z.number().int(),
  status: z.enum(RECORD_STATUSES),
});
export type Unit = z.infer<typeof unit>;
export type UnitInput = z.input<typeof unitInput>;
