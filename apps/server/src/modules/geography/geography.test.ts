import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';
import {
  type GazetteerUnit,
  gazetteerFilePath,
  importGazetteer,
  readGazetteerFile,
  SHIPPED_GAZETTEER,
} from './gazetteer.import.ts';

const gazetteer: GazetteerUnit[] = readGazetteerFile() as GazetteerUnit[];

const ctx = useTestApp();
let headers: Record<string, string>;
beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
});
const get = async (url: string) => (await ctx.app.inject({ method: 'GET', url, headers })).json();

describe('the gazetteer file', () => {
  it('ships inside the project, so a clone anywhere (no ../shared beside it) imports it', () => {
    const repo = path.resolve(import.meta.dirname, '../../../../..');
    expect(SHIPPED_GAZETTEER.startsWith(`${repo}${path.sep}`)).toBe(true);
    expect(fs.existsSync(SHIPPED_GAZETTEER)).toBe(true);
    if (!process.env.DEPOT_GAZETTEER_FILE) expect(gazetteerFilePath()).toBe(SHIPPED_GAZETTEER);
    expect(gazetteer).toHaveLength(16457);
  });

  it('reads another copy, plain or gzipped, judged by its bytes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gazetteer-'));
    try {
      const sample = gazetteer.slice(0, 3);
      fs.writeFileSync(path.join(dir, 'plain.json'), JSON.stringify(sample));
      fs.writeFileSync(path.join(dir, 'packed.data'), gzipSync(JSON.stringify(sample)));
      expect(readGazetteerFile(path.join(dir, 'plain.json'))).toEqual(sample);
      expect(readGazetteerFile(path.join(dir, 'packed.data'))).toEqual(sample);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gazetteer import', () => {
  it('imports all 16,457 units, and a second run changes nothing', async () => {
    const first = await importGazetteer(ctx.db, gazetteer);
    expect(first).toEqual({ provinces: 25, districts: 210, communes: 1652, villages: 14570, changed: 16457 });
    const second = await importGazetteer(ctx.db, gazetteer);
    expect(second.changed).toBe(0);
    expect((await get('/api/villages?per_page=10')).meta.total).toBe(14570);
  });

  it('updates only the units whose data changed', async () => {
    const renamed = gazetteer.map((u) => (u.code === '1020104' ? { ...u, name_en: 'Kouk Pnov Thmei' } : u));
    expect((await importGazetteer(ctx.db, renamed)).changed).toBe(1);
    expect((await importGazetteer(ctx.db, gazetteer)).changed).toBe(1);
  });

  it('refuses a file with a unit whose parent is missing, and changes nothing', async () => {
    const orphan = { code: '99999', type: 'commune', parent_code: '9999', name_km: 'ឃុំ', name_en: 'Nowhere' } as const;
    await expect(importGazetteer(ctx.db, [...gazetteer, orphan])).rejects.toThrow(/parent 9999 not found/);
    await expect(importGazetteer(ctx.db, [{ code: 'x' }])).rejects.toThrow();
    expect((await get('/api/communes?search=99999')).meta.total).toBe(0);
  });
});

describe('the gazetteer through the API', () => {
  it('names a village with its full path and finds it by code or by name in either language', async () => {
    const byCode = await get('/api/villages?search=1020104&sort=code');
    expect(byCode.data[0]).toMatchObject({ code: '1020104', name: 'Kouk Pnov', name_kh: 'គោកព្នៅ' });
    expect(byCode.data[0].path).toMatch(/^Kouk Pnov, Banteay Neang, Mongkol Borei, Banteay Meanchey$/);
    expect(byCode.data[0].path_kh).toMatch(/^គោកព្នៅ, .+, .+, បន្ទាយមានជ័យ$/);
    const byKhmer = await get(`/api/villages?search=${encodeURIComponent('គោកព្នៅ')}`);
    expect(byKhmer.data.map((v: { code: string }) => v.code)).toContain('1020104');
  });

  it('cascades: the districts of Phnom Penh, the communes of one of them, the villages of one commune', async () => {
    const provinces = await get('/api/provinces?per_page=100');
    expect(provinces.meta.total).toBe(25);
    const phnomPenh = provinces.data.find((p: { code: string }) => p.code === '12');
    expect(phnomPenh).toMatchObject({
      type: 'municipality',
      name: 'Phnom Penh',
      name_kh: 'ភ្នំពេញ',
      districts_count: 14,
    });
    const districts = await get(`/api/districts?filter[province_id]=${phnomPenh.id}&per_page=100`);
    expect(districts.meta.total).toBe(14);
    const communes = await get(`/api/communes?filter[district_id]=${districts.data[0].id}&per_page=100`);
    expect(communes.data.every((c: { code: string }) => c.code.startsWith(districts.data[0].code))).toBe(true);
    const villages = await get(`/api/villages?filter[commune_id]=${communes.data[0].id}&per_page=100`);
    expect(villages.meta.total).toBe(communes.data[0].villages_count);
  });

  it('refuses to delete a province that still has districts, and a district under a missing province', async () => {
    const [kratie] = (await get('/api/provinces?search=Kratie')).data;
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/provinces/${kratie.id}`, headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^Province cannot be deleted: districts still use it \(\d+\)\.$/);

    const orphan = await ctx.app.inject({
      method: 'POST',
      url: '/api/districts',
      headers,
      payload: { code: '9901', name_kh: 'ស្រុកថ្មី', province_id: 999_999 },
    });
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json().errors).toEqual({ province_id: ['The selected record does not exist.'] });
  });

  it('keeps codes unique', async () => {
    const [kratie] = (await get('/api/provinces?search=Kratie')).data;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/districts',
      headers,
      payload: { code: '102', name_kh: 'ស្ទួន', province_id: kratie.id },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ code: ['This value is already used.'] });
  });
});
