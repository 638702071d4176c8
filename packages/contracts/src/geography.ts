import { z } from 'zod';
import { NAME_MAX } from './constants.ts';
import { recordFields } from './resources.ts';

/**
 * The Cambodian gazetteer (spec: province, district, commune, village, operational district,
 * health facility; each with code, name, name_en, name_kh, name_fr). `name` is what English lists
 * show: the English name where there is one, else the Khmer. Parent names and paths come in both
 * languages (`…_name` and `…_name_kh`, `path` and `path_kh`).
 */
const code = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z-]{1,20}$/);
const placeName = z.string().trim().min(1).max(NAME_MAX);
const optionalName = z
  .string()
  .trim()
  .max(NAME_MAX)
  .nullish()
  .transform((v) => (v ? v : null));
const parent = z.coerce.number().int().min(1);

const names = { name_en: optionalName, name_kh: placeName, name_fr: optionalName };
const namesOut = {
  name: z.string(),
  name_en: z.string().nullable(),
  name_kh: z.string(),
  name_fr: z.string().nullable(),
};

/** What every level's input has: its code and its names (each level adds its parent's id). */
const placeInput = z.object({ code, ...names });
/** What every level answers: the record, its code and its names (each level adds its parent's). */
const place = z.object({ ...recordFields, code: z.string(), ...namesOut });

const count = z.number().int();
const text = z.string();

/** A level's parent, in its input: `province` → `province_id`. */
function parentIn<const L extends string>(level: L) {
  return { [`${level}_id`]: parent } as Record<`${L}_id`, typeof parent>;
}

/** A level's parent, as it answers: `province` → `province_id`, `province_name`, `province_name_kh`. */
function parentOut<const L extends string>(level: L) {
  return {
    [`${level}_id`]: count,
    [`${level}_name`]: text,
    [`${level}_name_kh`]: text,
  } as Record<`${L}_id`, typeof count> & Record<`${L}_name` | `${L}_name_kh`, typeof text>;
}

export const PROVINCE_TYPES = ['province', 'municipality'] as const;

export const provinceInput = placeInput.extend({ type: z.enum(PROVINCE_TYPES).default('province') });
export const province = place.extend({ type: z.enum(PROVINCE_TYPES), districts_count: count });

export const districtInput = placeInput.extend(parentIn('province'));
export const district = place.extend({ ...parentOut('province'), communes_count: count });

export const communeInput = placeInput.extend(parentIn('district'));
export const commune = place.extend({ ...parentOut('district'), villages_count: count });

export const villageInput = placeInput.extend(parentIn('commune'));
export const village = place.extend({
  ...parentOut('commune'),
  /** "Village, Commune, District, Province" in the names lists show, for pickers and addresses. */
  path: text,
  /** The same path in Khmer. */
  path_kh: text,
});

export const operationalDistrictInput = placeInput.extend(parentIn('province'));
export const operationalDistrict = place.extend(parentOut('province'));

export const healthFacilityInput = placeInput.extend(parentIn('operational_district'));
export const healthFacility = place.extend(parentOut('operational_district'));

export type Province = z.infer<typeof province>;
export type District = z.infer<typeof district>;
export type Commune = z.infer<typeof commune>;
export type Village = z.infer<typeof village>;

/** Attribution the ODbL requires wherever the gazetteer's data is listed. */
export const GAZETTEER_ATTRIBUTION =
  'Cambodia Gazetteer: Open Development Cambodia (NCDD gazetteer database), ODbL 1.0; normalized by the cambo-gazetteer project (MIT).';

/** The same credit for Khmer pages (names of works and licences stay as their owners write them). */
export const GAZETTEER_ATTRIBUTION_KH =
  'បញ្ជីនាមភូមិសាស្ត្រកម្ពុជា៖ Open Development Cambodia (មូលដ្ឋានទិន្នន័យ NCDD) អាជ្ញាប័ណ្ណ ODbL 1.0; រៀបចំឡើងវិញដោយគម្រោង cambo-gazetteer (MIT)។';
