import {
  commune,
  communeInput,
  type District,
  district,
  districtInput,
  GAZETTEER_ATTRIBUTION,
  GAZETTEER_ATTRIBUTION_KH,
  type Province,
  province,
  provinceInput,
  village,
  villageInput,
} from '@depot/contracts';
import { Input, Select, Tag, Typography } from 'antd';
import { LocationPicker } from '../kit/LocationPicker.tsx';
import { type PickProps, RemoteSelect } from '../kit/RemoteSelect.tsx';
import { type Column, type Ctx, defineResource, type Field, localName } from '../kit/resource.ts';
import { nameColumns, nameFields, selectFilter, textField } from '../kit/resourceParts.tsx';

/** The Cambodian gazetteer: four levels, each listed and edited the same way. */

function codeColumn<R extends { code: string }>(ctx: Ctx): Column<R> {
  return { key: 'code', title: ctx.t('fields.code'), sort: 'code', render: (row) => row.code, width: 110 };
}

function commonFields(ctx: Ctx): Field[] {
  return [
    textField('code', ctx.t('fields.code'), 20),
    ...nameFields(ctx),
    { name: 'name_fr', label: ctx.t('fields.name_fr'), control: <Input lang="fr" maxLength={50} /> },
  ];
}

/** ODbL: the attribution goes wherever the data is listed. */
function attribution({ t, locale }: Ctx) {
  return (
    <Typography.Text type="secondary" data-testid="gazetteer-attribution" style={{ fontSize: 13 }}>
      {t('gazetteer.source')} {locale === 'kh' ? GAZETTEER_ATTRIBUTION_KH : GAZETTEER_ATTRIBUTION}
    </Typography.Text>
  );
}

const gazetteer = { label: localName, footer: attribution, defaultSort: () => 'code' };

function ProvinceSelect(props: PickProps) {
  return <RemoteSelect<Province> {...props} api="provinces" row={province} optionLabel={localName} />;
}

function DistrictSelect(props: PickProps) {
  return <RemoteSelect<District> {...props} api="districts" row={district} optionLabel={localName} />;
}

function CommuneSelect(props: PickProps) {
  return <RemoteSelect {...props} api="communes" row={commune} optionLabel={localName} />;
}

function provinceTypes({ t }: Ctx): Record<Province['type'], string> {
  return { province: t('provinces.province'), municipality: t('provinces.municipality') };
}

export const provinces = defineResource({
  ...gazetteer,
  screen: '/provinces',
  api: 'provinces',
  resource: 'provinces',
  row: province,
  input: provinceInput,
  texts: (t) => ({ title: t('menu.provinces'), create: t('provinces.create'), edit: t('provinces.edit') }),
  columns: (ctx) => [
    codeColumn(ctx),
    ...nameColumns(ctx),
    {
      key: 'type',
      title: ctx.t('fields.type'),
      render: (row) => (
        <Tag color={row.type === 'municipality' ? 'gold' : 'default'}>{provinceTypes(ctx)[row.type]}</Tag>
      ),
    },
    { key: 'districts_count', title: ctx.t('fields.districts_count'), render: (row) => row.districts_count },
  ],
  filters: (ctx) => {
    const types = provinceTypes(ctx);
    return [
      {
        name: 'type',
        label: ctx.t('fields.type'),
        options: [
          { value: 'province', label: types.province },
          { value: 'municipality', label: types.municipality },
        ],
      },
    ];
  },
  fields: (ctx) => {
    const types = provinceTypes(ctx);
    return [
      ...commonFields(ctx),
      {
        name: 'type',
        label: ctx.t('fields.type'),
        control: (
          <Select
            options={[
              { value: 'province', label: types.province },
              { value: 'municipality', label: types.municipality },
            ]}
          />
        ),
      },
    ];
  },
  defaults: { type: 'province' },
});

export const districts = defineResource({
  ...gazetteer,
  screen: '/districts',
  api: 'districts',
  resource: 'districts',
  row: district,
  input: districtInput,
  texts: (t) => ({ title: t('menu.districts'), create: t('districts.create'), edit: t('districts.edit') }),
  columns: (ctx) => [
    codeColumn(ctx),
    ...nameColumns(ctx),
    {
      key: 'province',
      title: ctx.t('fields.province'),
      render: (row) => (ctx.locale === 'kh' ? row.province_name_kh : row.province_name),
    },
    { key: 'communes_count', title: ctx.t('fields.communes_count'), render: (row) => row.communes_count },
  ],
  filters: (ctx) => [selectFilter('province_id', ctx.t('fields.province'), ProvinceSelect)],
  fields: (ctx) => [
    { name: 'province_id', label: ctx.t('fields.province'), control: <LocationPicker depth="province" /> },
    ...commonFields(ctx),
  ],
});

export const communes = defineResource({
  ...gazetteer,
  screen: '/communes',
  api: 'communes',
  resource: 'communes',
  row: commune,
  input: communeInput,
  texts: (t) => ({ title: t('menu.communes'), create: t('communes.create'), edit: t('communes.edit') }),
  columns: (ctx) => [
    codeColumn(ctx),
    ...nameColumns(ctx),
    {
      key: 'district',
      title: ctx.t('fields.district'),
      render: (row) => (ctx.locale === 'kh' ? row.district_name_kh : row.district_name),
    },
    { key: 'villages_count', title: ctx.t('fields.villages_count'), render: (row) => row.villages_count },
  ],
  filters: (ctx) => [selectFilter('district_id', ctx.t('fields.district'), DistrictSelect)],
  fields: (ctx) => [
    { name: 'district_id', label: ctx.t('fields.district'), control: <LocationPicker depth="district" /> },
    ...commonFields(ctx),
  ],
});

export const villages = defineResource({
  ...gazetteer,
  screen: '/villages',
  api: 'villages',
  resource: 'villages',
  row: village,
  input: villageInput,
  texts: (t) => ({ title: t('menu.villages'), create: t('villages.create'), edit: t('villages.edit') }),
  columns: (ctx) => [
    codeColumn(ctx),
    ...nameColumns(ctx),
    {
      key: 'commune',
      title: ctx.t('fields.commune'),
      render: (row) => (ctx.locale === 'kh' ? row.commune_name_kh : row.commune_name),
    },
  ],
  filters: (ctx) => [selectFilter('commune_id', ctx.t('fields.commune'), CommuneSelect)],
  fields: (ctx) => [
    { name: 'commune_id', label: ctx.t('fields.commune'), control: <LocationPicker depth="commune" /> },
    ...commonFields(ctx),
  ],
});
