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

export const PROVINCE_TYPES = ['province', 'municipality'] as const;

export const provinceInput = z.object({ code, ...names, type: z.enum(PROVINCE_TYPES).default('province') });
export const province = z.object({
  ...recordFields,
  code: z.string(),
  ...namesOut,
  type: z.enum(PROVINCE_TYPES),
  districts_count: z.number().int(),
});

export const districtInput = z.object({ code, ...names, province_id: parent });
export const district = z.object({
  ...recordFields,
  code: z.string(),
  ...namesOut,
  province_id: z.number().int(),
  province_name: z.string(),
  province_name_kh: z.string(),
  communes_count: z.number().int(),
});

export const communeInput = z.object({ code, ...names, district_id: parent });
export const commune = z.object({
  ...recordFields,
  code: z.string(),
  ...namesOut,
  district_id: z.number().int(),
  district_name: z.string(),
  district_name_kh: z.string(),
  villages_count: z.number().int(),
});

export const villageInput = z.object({ code, ...names, commune_id: parent });
export const village = z.object({
  ...recordFields,
  code: z.string(),
  ...namesOut,
  commune_id: z.number().int(),
  commune_name: z.string(),
  commune_name_kh: z.string(),
  /** "Village, Commune, District, Province" in the names lists show, for pickers and addresses. */
  path: z.string(),
  /** The same path in Khmer. */
  path_kh: z.string(),
});

export const operationalDistrictInput = z.object({ code, ...names, province_id: parent });
export const operationalDistrict = z.object({
  ...recordFields,
  code: z.string(),
  ...namesOut,
  province_id: z.number().int(),
  province_name: z.string(),
  province_name_kh: z.string(),
});

export const healthFacilityInput = z.object({ code, ...names, operational_district_id: parent });
export const healthFacility = z.object({
  ...recordFields,
  code: z.string(),
  ...namesOut,
  operational_district_id: z.number().int(),
  operational_district_name: z.string(),
  operational_district_name_kh: z.string(),
});

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
