import { coverageAreas, type coverageInput, single, user, userCoverage, written } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Form, Input, Row, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { failureMessage, usePageWrite } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useDebounced } from '../../kit/useDebounced.ts';
import { api } from '../../lib/http.ts';
import { StoresPicker } from '../../resources/users.tsx';

const P = 'p';
const OD = 'od';
const HF = 'hf';

/**
 * A user's coverage (spec: "user coverage assignment (operational districts and health facilities
 * to users)"): their stores, and the areas they serve as a tree with search, provinces →
 * operational districts → health facilities. Ticking a district covers all its facilities.
 */
export function CoveragePage() {
  const { t, locale } = useCtx();
  const id = Number(useParams().id);
  const who = useQuery({
    queryKey: ['depot', 'users', id],
    queryFn: async ({ signal }) => (await api(`users/${id}`, { signal, schema: single(user) })).data,
  });
  const coverage = useQuery({
    queryKey: ['depot', 'coverage', id],
    queryFn: async ({ signal }) => (await api(`users/${id}/coverage`, { signal, schema: single(userCoverage) })).data,
  });
  const areas = useQuery({
    queryKey: ['depot', 'coverage-areas'],
    queryFn: async ({ signal }) => (await api('coverage/areas', { signal, schema: coverageAreas })).data,
    staleTime: 10 * 60_000,
  });
  const [stores, setStores] = useState<number[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim().toLowerCase(), 200);
  const { send, saving, problem } = usePageWrite(
    (body: z.infer<typeof coverageInput>) =>
      api(`users/${id}/coverage`, { method: 'PUT', body, schema: written(userCoverage) }),
    locale,
  );

  useEffect(() => {
    if (!coverage.data) return;
    setStores(coverage.data.store_ids);
    setChecked([
      ...coverage.data.operational_district_ids.map((d) => `${OD}${d}`),
      ...coverage.data.health_facility_ids.map((f) => `${HF}${f}`),
    ]);
  }, [coverage.data]);

  const name = (a: { name_en: string | null; name_kh: string }) =>
    locale === 'kh' ? a.name_kh : (a.name_en ?? a.name_kh);
  const matches = (a: { name_en: string | null; name_kh: string; code: string }) =>
    !search || [a.name_en ?? '', a.name_kh, a.code].some((s) => s.toLowerCase().includes(search));

  const tree: DataNode[] = (areas.data ?? [])
    .map((p) => {
      const districts = p.operational_districts
        .map((d) => {
          const facilities = d.health_facilities.filter((f) => matches(f) || matches(d) || matches(p));
          if (!facilities.length && !matches(d) && !matches(p)) return null;
          return {
            key: `${OD}${d.id}`,
            title: name(d),
            children: facilities.map((f) => ({ key: `${HF}${f.id}`, title: name(f), isLeaf: true })),
          };
        })
        .filter((d) => d !== null);
      return districts.length ? { key: `${P}${p.id}`, title: name(p), children: districts } : null;
    })
    .filter((p) => p !== null) as DataNode[];

  const save = () => {
    // a ticked district covers its facilities: only the district is sent
    const districts = checked.filter((k) => k.startsWith(OD)).map((k) => Number(k.slice(OD.length)));
    const inDistricts = new Set(
      (areas.data ?? [])
        .flatMap((p) => p.operational_districts)
        .filter((d) => districts.includes(d.id))
        .flatMap((d) => d.health_facilities.map((f) => f.id)),
    );
    const facilities = checked
      .filter((k) => k.startsWith(HF))
      .map((k) => Number(k.slice(HF.length)))
      .filter((f) => !inDistricts.has(f));
    return send({ store_ids: stores, operational_district_ids: districts, health_facility_ids: facilities });
  };

  if (who.isLoading || coverage.isLoading) return <Spin />;
  const failed = who.error ?? coverage.error;
  if (failed) return <Alert type="error" showIcon title={failureMessage(failed, locale)} />;

  return (
    <Card
      title={`${t('users.coverage')}: ${who.data?.full_name ?? who.data?.name ?? ''}`}
      extra={
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="coverage-save">
          {t('kit.save')}
        </Button>
      }
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Row gutter={24}>
        <Col xs={24} md={10}>
          <Form layout="vertical">
            <Form.Item label={t('users.stores')} help={t('users.homeStoreHelp')}>
              <StoresPicker value={stores} onChange={setStores} />
            </Form.Item>
          </Form>
        </Col>
        <Col xs={24} md={14}>
          <Form layout="vertical">
            <Form.Item label={t('users.areas')} help={t('users.areasHelp')}>
              <Input.Search
                allowClear
                placeholder={t('users.areasSearch')}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                style={{ marginBottom: 8 }}
                data-testid="areas-search"
              />
              {areas.isLoading ? (
                <Spin />
              ) : tree.length ? (
                <Tree
                  checkable
                  data-testid="areas-tree"
                  treeData={tree}
                  checkedKeys={checked}
                  defaultExpandAll={Boolean(search)}
                  key={search}
                  onCheck={(keys) => {
                    const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
                    // a search shows part of the tree: what it hides stays as it was
                    const shown = new Set(keysOf(tree));
                    const kept = checked.filter((k) => !shown.has(k));
                    // provinces are a way to tick their districts, not a coverage of their own
                    setChecked([...kept, ...list.filter((k) => !k.startsWith(P))]);
                  }}
                  height={420}
                />
              ) : (
                <Empty description={t('users.noAreas')} />
              )}
            </Form.Item>
          </Form>
        </Col>
      </Row>
    </Card>
  );
}

function keysOf(nodes: DataNode[]): string[] {
  return nodes.flatMap((n) => [String(n.key), ...keysOf(n.children ?? [])]);
}
