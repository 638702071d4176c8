import { SaveOutlined } from '@ant-design/icons';
import { LABEL_SHEET_NAMES, type LabelSettings, type LabelSheet, labelSettings, written } from '@depot/contracts';
import { Alert, Button, Card, Flex, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { usePageWrite } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { api } from '../../lib/http.ts';
import { useLabelSettings, useSheetLabel } from './labels.ts';

function LabelSettingsForm({ initial }: { initial: LabelSettings }) {
  const { t, locale } = useCtx();
  const [value, setValue] = useState(initial);
  const sheetLabel = useSheetLabel();
  const { send, saving, problem } = usePageWrite(
    (body: LabelSettings) => api('labels/settings', { method: 'PUT', body, schema: written(labelSettings) }),
    locale,
  );
  const options = LABEL_SHEET_NAMES.map((name) => ({ value: name, label: sheetLabel(name) }));
  return (
    <Flex vertical gap={12} data-testid="label-settings">
      <Typography.Text type="secondary">{t('labels.settingsHelp')}</Typography.Text>
      {problem && <Alert type="error" showIcon title={problem} />}
      <Flex wrap gap={12} align="center">
        <label htmlFor="barcode-sheet">{t('labels.barcodeSheet')}</label>
        <Select<LabelSheet>
          id="barcode-sheet"
          style={{ minWidth: 260 }}
          value={value.barcode_sheet}
          onChange={(barcode_sheet) => setValue({ ...value, barcode_sheet })}
          options={options}
          virtual={false}
        />
        <label htmlFor="tag-sheet">{t('labels.tagSheet')}</label>
        <Select<LabelSheet>
          id="tag-sheet"
          style={{ minWidth: 260 }}
          value={value.tag_sheet}
          onChange={(tag_sheet) => setValue({ ...value, tag_sheet })}
          options={options}
          virtual={false}
        />
      </Flex>
      <div>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          loading={saving}
          onClick={() => void send(value)}
          data-testid="label-settings-save"
        >
          {t('labels.save')}
        </Button>
      </div>
    </Flex>
  );
}

/** The settings page's card: the A4 sheets labels and shelf tags are printed on (settings.update). */
export function LabelSettingsCard() {
  const { t } = useCtx();
  const allowed = useCan('products.generate');
  const settings = useLabelSettings(allowed);
  if (!allowed) return null;
  return (
    <Card title={t('labels.settings')}>
      {settings.data ? <LabelSettingsForm initial={settings.data.data} /> : <Skeleton active />}
    </Card>
  );
}
