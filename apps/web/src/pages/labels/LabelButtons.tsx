import { BarcodeOutlined, TagsOutlined } from '@ant-design/icons';
import { labelItems, todayInCambodia } from '@depot/contracts';
import { Alert, Button, Flex, Popover, Typography } from 'antd';
import { useState } from 'react';
import { DateInput } from '../../kit/inputs.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { api } from '../../lib/http.ts';
import { type LabelLine, LabelsDialog } from './LabelsDialog.tsx';

/** The product list's selected rows: labels for them, one of each to start with. */
export function SelectedLabelsButton({ products }: { products: { id: number; name_en: string; name_kh: string }[] }) {
  const { t } = useCtx();
  const [lines, setLines] = useState<LabelLine[] | null>(null);
  if (!useCan('products.generate')) return null;
  return (
    <>
      <Button
        icon={<BarcodeOutlined />}
        disabled={products.length === 0}
        title={products.length === 0 ? t('labels.tickFirst') : undefined}
        onClick={() =>
          setLines(products.map((p) => ({ product_id: p.id, name_en: p.name_en, name_kh: p.name_kh, quantity: 1 })))
        }
        data-testid="labels-selected"
      >
        {products.length ? t('labels.forSelected', { count: products.length }) : t('labels.selectFirst')}
      </Button>
      <LabelsDialog lines={lines} onClose={() => setLines(null)} />
    </>
  );
}

/** Shelf tags for every product whose price changed (or that was added) since a day. */
export function PriceChangeTagsButton() {
  const { t, locale } = useCtx();
  const [since, setSince] = useState<string | null>(todayInCambodia());
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);
  const [lines, setLines] = useState<LabelLine[] | null>(null);
  if (!useCan('products.generate')) return null;
  const find = async () => {
    if (!since) return;
    setBusy(true);
    setProblem(null);
    setEmpty(false);
    try {
      const { items } = await api(`labels/price-changes?since=${since}`, { schema: labelItems });
      if (items.length === 0) setEmpty(true);
      else {
        setOpen(false);
        setLines(items);
      }
    } catch (error) {
      setProblem(failureMessage(error, locale));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Popover
        open={open}
        onOpenChange={setOpen}
        trigger="click"
        title={t('labels.priceChangesTitle')}
        content={
          <Flex vertical gap={8} style={{ width: 260 }}>
            <Typography.Text>{t('labels.since')}</Typography.Text>
            <DateInput value={since} onChange={(v) => setSince(v ?? null)} aria-label={t('labels.since')} />
            {problem && <Alert type="error" showIcon title={problem} />}
            {empty && <Alert type="info" showIcon title={t('labels.noChanges')} />}
            <Button type="primary" loading={busy} disabled={!since} onClick={find} data-testid="labels-find-changes">
              {t('labels.findChanges')}
            </Button>
          </Flex>
        }
      >
        <Button icon={<TagsOutlined />} data-testid="labels-price-changes">
          {t('labels.priceChanges')}
        </Button>
      </Popover>
      <LabelsDialog lines={lines} kind="tag" onClose={() => setLines(null)} />
    </>
  );
}
