import { commune, district, type Locale, paginated, province, single, village } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Col, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { useCan } from '../lib/access.tsx';
import { api } from '../lib/http.ts';
import { listKey } from './queries.ts';
import { localName } from './resource.ts';
import { useCtx } from './useCtx.ts';

type Place = { id: number; name_kh: string; name_en: string | null; code: string; deleted_at: string | null };

/** Province → district → commune → village; each level filters its API by the level above. */
const LEVELS = [
  { key: 'province', api: 'provinces', row: province, parent: null },
  { key: 'district', api: 'districts', row: district, parent: 'province_id' },
  { key: 'commune', api: 'communes', row: commune, parent: 'district_id' },
  { key: 'village', api: 'villages', row: village, parent: 'commune_id' },
] as const;

export type LocationDepth = (typeof LEVELS)[number]['key'];
type Ids = (number | undefined)[];

/** Up from the chosen record to its province: GET villages/1 → commune_id → GET communes/… */
async function pathTo(depth: number, id: number, signal: AbortSignal): Promise<Ids> {
  const ids: Ids = [];
  ids[depth] = id;
  for (let level = depth; level > 0; level--) {
    const { api: path, row, parent } = LEVELS[level];
    const schema = single(row as z.ZodType<Record<string, unknown>>);
    const { data } = await api(`${path}/${ids[level]}`, { signal, schema });
    ids[level - 1] = data[parent as string] as number;
  }
  return ids;
}

function useLevelOptions(level: number, parentId: number | undefined, locale: Locale) {
  const { api: path, row, parent } = LEVELS[level];
  const query = new URLSearchParams({ per_page: '100', sort: locale === 'kh' ? 'name_kh' : 'name_en' });
  if (parent && parentId) query.set(`filter[${parent}]`, String(parentId));
  const key = query.toString();
  return useQuery({
    queryKey: listKey(path, key),
    // No parent level has more than 33 children, so one page of 100 holds them all.
    queryFn: async ({ signal }) =>
      (await api(`${path}?${key}`, { signal, schema: paginated(row as z.ZodType<Place>) })).data,
    enabled: parent === null || Boolean(parentId),
    staleTime: 10 * 60 * 1000,
  });
}

function LevelSelect({
  level,
  ids,
  onPick,
  disabled,
  id,
}: {
  level: number;
  ids: Ids;
  onPick: (level: number, value: number | undefined) => void;
  disabled?: boolean;
  id?: string;
}) {
  const { t, locale } = useCtx();
  const options = useLevelOptions(level, ids[level - 1], locale);
  const placeholders = [t('location.province'), t('location.district'), t('location.commune'), t('location.village')];
  const waiting = level > 0 && !ids[level - 1];
  return (
    <div data-testid={`location-${LEVELS[level].key}`}>
      <Select<number>
        id={id}
        style={{ width: '100%' }}
        aria-label={placeholders[level]}
        placeholder={placeholders[level]}
        value={ids[level]}
        onChange={(value) => onPick(level, value ?? undefined)}
        disabled={disabled || waiting}
        loading={options.isFetching}
        allowClear
        // Khmer or Latin: either name, or the code, finds a place.
        showSearch={{ optionFilterProp: 'search' }}
        virtual={false}
        options={(options.data ?? [])
          .filter((place) => !place.deleted_at)
          .map((place) => ({
            value: place.id,
            label: localName(place, locale),
            search: `${place.name_kh} ${place.name_en ?? ''} ${place.code}`.toLowerCase(),
          }))}
      />
    </div>
  );
}

export interface LocationPickerProps {
  /** The id at the deepest level (a village for an address). */
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The level whose id is the value: `village` for addresses, `district` for a commune's parent. */
  depth?: LocationDepth;
  id?: string;
  disabled?: boolean;
}

/**
 * The one place picker. Its value is the id at `depth`; the levels above are what the user chose on
 * the way, or, for an existing record, read back from the server one level at a time.
 */
export function LocationPicker({ value, onChange, depth = 'village', id, disabled }: LocationPickerProps) {
  const { t } = useCtx();
  const last = LEVELS.findIndex((level) => level.key === depth);
  const allowed = [
    useCan('provinces.list'),
    useCan('districts.list'),
    useCan('communes.list'),
    useCan('villages.list'),
  ].slice(0, last + 1);
  const [chosen, setChosen] = useState<Ids | null>(null);
  // What the user picked holds while it still ends in the form's value; otherwise the value wins.
  const local = chosen && (chosen[last] ?? null) === (value ?? null) ? chosen : null;
  const path = useQuery({
    queryKey: ['resource', LEVELS[last].api, 'path', value ?? 0],
    queryFn: ({ signal }) => pathTo(last, value as number, signal),
    enabled: value != null && !local && allowed.every(Boolean),
    staleTime: 10 * 60 * 1000,
  });
  const ids: Ids = local ?? (value != null ? (path.data ?? []) : []);

  if (!allowed.every(Boolean)) {
    return <Typography.Text type="secondary">{t('location.noAccess')}</Typography.Text>;
  }

  const onPick = (level: number, picked: number | undefined) => {
    // A new choice at one level empties the levels below it.
    const next = [...ids.slice(0, level), picked];
    setChosen(next);
    onChange?.(level === last ? (picked ?? null) : null);
  };

  return (
    <Row gutter={[12, 12]} data-testid="location-picker">
      {LEVELS.slice(0, last + 1).map((level, index) => (
        <Col key={level.key} xs={24} sm={last === 0 ? 24 : 12}>
          <LevelSelect
            level={index}
            ids={ids}
            onPick={onPick}
            disabled={disabled || (value != null && !local && path.isPending)}
            id={index === 0 ? id : undefined}
          />
        </Col>
      ))}
    </Row>
  );
}
