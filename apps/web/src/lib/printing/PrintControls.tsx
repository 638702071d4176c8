import { InboxOutlined, PrinterOutlined, SettingOutlined, UsbOutlined } from '@ant-design/icons';
import { PAPER_WIDTHS, type PaperWidth, type Printer, printer, written } from '@depot/contracts';
import { Alert, App, Button, Flex, Form, Modal, Radio, Segmented, Select, Switch, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { z } from 'zod';
import { failureMessage, usePage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../access.tsx';
import { api } from '../http.ts';
import { chooseDevice, type LocalKind, localSupport } from './devices.ts';
import {
  DRAWER_PIN_OPTIONS,
  type LocalPrinter,
  type PrintTarget,
  storedLocalPrinter,
  storedTarget,
  storeLocalPrinter,
  storeTarget,
  targetFrom,
  targetValue,
} from './targets.ts';
import { LocalPrinterMissing, type RasterOptions, useRasterPrint } from './useRasterPrint.tsx';

/** The active network printers of a store, for who may list printers. */
export function useStorePrinters(storeId: number | null | undefined): Printer[] {
  const allowed = useCan('printers.list');
  const page = usePage(
    'printers',
    printer,
    `filter[store_id]=${storeId ?? 0}&filter[status]=active&per_page=100`,
    allowed && Boolean(storeId),
  );
  return page.data?.data ?? [];
}

/** This computer's printer: Web Serial or WebUSB, its paper and its drawer; the device chosen by the browser. */
function LocalPrinterSetup({ onClose }: { onClose: (saved: boolean) => void }) {
  const { t } = useCtx();
  const support = localSupport();
  const [value, setValue] = useState<LocalPrinter>(
    () =>
      storedLocalPrinter() ?? {
        kind: support.usb && !support.serial ? 'usb' : 'serial',
        device: '',
        paper: '80',
        drawer: false,
        pin: 2,
        baudRate: 9600,
      },
  );
  const [problem, setProblem] = useState<string | null>(null);
  const none = !support.serial && !support.usb;

  const choose = async () => {
    setProblem(null);
    try {
      const device = await chooseDevice(value.kind);
      const next = { ...value, device };
      setValue(next);
      storeLocalPrinter(next);
      onClose(true);
    } catch {
      // the chooser was closed without a device, or the browser refused
      setProblem(t('printing.noDeviceChosen'));
    }
  };

  return (
    <Modal
      open
      title={t('printing.localTitle')}
      onCancel={() => onClose(false)}
      okText={t('printing.chooseDevice')}
      okButtonProps={{ disabled: none, icon: <UsbOutlined />, ...{ 'data-testid': 'choose-device' } }}
      onOk={() => void choose()}
      cancelText={t('kit.cancel')}
      destroyOnHidden
    >
      <Flex vertical gap={12} data-testid="local-printer-setup">
        {none ? (
          <Alert type="warning" showIcon title={t('printing.unsupported')} data-testid="local-unsupported" />
        ) : (
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('printing.localHelp')}
          </Typography.Paragraph>
        )}
        <Form layout="vertical" disabled={none} requiredMark={false}>
          <Form.Item label={t('printing.connection')}>
            <Radio.Group
              value={value.kind}
              onChange={(event) => setValue({ ...value, kind: event.target.value as LocalKind })}
              options={[
                { value: 'serial', label: t('printing.serial'), disabled: !support.serial },
                { value: 'usb', label: t('printing.usb'), disabled: !support.usb },
              ]}
            />
          </Form.Item>
          <Form.Item label={t('printing.paper')}>
            <Segmented<PaperWidth>
              value={value.paper}
              onChange={(paper) => setValue({ ...value, paper })}
              options={PAPER_WIDTHS.map((w) => ({ value: w, label: `${w} mm` }))}
            />
          </Form.Item>
          <Flex gap={16} align="center" wrap>
            <Form.Item label={t('printing.drawer')}>
              <Switch
                checked={value.drawer}
                onChange={(drawer) => setValue({ ...value, drawer })}
                data-testid="local-drawer"
              />
            </Form.Item>
            <Form.Item label={t('printing.pin')}>
              <Radio.Group
                value={value.pin}
                disabled={!value.drawer}
                onChange={(event) => setValue({ ...value, pin: event.target.value })}
                options={DRAWER_PIN_OPTIONS}
              />
            </Form.Item>
          </Flex>
        </Form>
        {problem && <Alert type="error" showIcon title={problem} />}
      </Flex>
    </Modal>
  );
}

const drawerAnswer = written(z.object({ printer_id: z.number().int() }));

/**
 * Where to print and Print, for any document drawn as a picture: the browser's own print, a store's
 * network printer, or this computer's printer; a manager's "Open drawer" beside them. The choice is
 * remembered on this computer. `document(paper)` draws the document for a paper width.
 */
export function PrintControls({
  storeId,
  document,
  onBrowserPrint,
  options,
  browserBusy,
}: {
  storeId: number;
  document: (paper: PaperWidth) => ReactNode;
  onBrowserPrint: () => void;
  options?: RasterOptions;
  browserBusy?: boolean;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const printers = useStorePrinters(storeId);
  const raster = useRasterPrint();
  const mayKick = useCan('printers.approve');
  const [target, setTarget] = useState<PrintTarget>(storedTarget);
  const [setup, setSetup] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const local = storedLocalPrinter();
  // a printer removed since it was chosen falls back to the browser's print
  const shown: PrintTarget =
    target.kind === 'network' && !printers.some((p) => p.id === target.printerId) ? { kind: 'browser' } : target;

  const choose = (value: string) => {
    const next = targetFrom(value);
    setTarget(next);
    storeTarget(next);
    setProblem(null);
    if (next.kind === 'local' && !storedLocalPrinter()) setSetup(true);
  };

  const run = async (work: () => Promise<string | null>) => {
    setBusy(true);
    setProblem(null);
    try {
      const done = await work();
      if (done) void message.success(done);
    } catch (error) {
      if (error instanceof LocalPrinterMissing) {
        setProblem(t('printing.chooseAgain'));
        if (error.message !== 'network') setSetup(true);
      } else {
        setProblem(shown.kind === 'local' ? t('printing.localFailed') : failureMessage(error, locale));
      }
    } finally {
      setBusy(false);
    }
  };

  const print = () => {
    if (shown.kind === 'browser') onBrowserPrint();
    // a network printer prints through the server; the browser's and this computer's need none
    else if (shown.kind === 'network' && navigator.onLine === false) setProblem(t('offline.needsConnection'));
    else void run(() => raster.print(shown, printers, document, options));
  };

  const chosen = shown.kind === 'network' ? printers.find((p) => p.id === shown.printerId) : null;
  const drawer =
    shown.kind === 'network' ? Boolean(chosen?.drawer_kick) : shown.kind === 'local' && Boolean(local?.drawer);
  const openDrawer = () =>
    void run(async () => {
      if (shown.kind === 'local') {
        await raster.kickLocal();
        return t('printing.drawerOpened');
      }
      return (await api(`printers/${chosen?.id}/drawer`, { method: 'POST', schema: drawerAnswer })).message;
    });

  return (
    <Flex vertical gap={8} style={{ width: '100%' }} data-testid="print-controls">
      {problem && <Alert type="error" showIcon title={problem} data-testid="print-problem" />}
      <Flex gap={8} justify="flex-end" wrap>
        <Select
          aria-label={t('printing.target')}
          data-testid="print-target"
          style={{ minWidth: 220 }}
          value={targetValue(shown)}
          onChange={choose}
          options={[
            { value: 'browser', label: t('printing.browser') },
            ...printers.map((p) => ({ value: `network:${p.id}`, label: `${p.name} (${p.paper} mm)` })),
            { value: 'local', label: local ? t('printing.localChosen', { paper: local.paper }) : t('printing.local') },
          ]}
        />
        {shown.kind === 'local' && (
          <Button icon={<SettingOutlined />} aria-label={t('printing.localTitle')} onClick={() => setSetup(true)} />
        )}
        {mayKick && drawer && (
          <Button icon={<InboxOutlined />} onClick={openDrawer} disabled={busy} data-testid="open-drawer">
            {t('printing.openDrawer')}
          </Button>
        )}
        <Button
          type="primary"
          icon={<PrinterOutlined />}
          loading={busy || browserBusy || raster.busy}
          onClick={print}
          data-testid="print-now"
        >
          {t('print.print')}
        </Button>
      </Flex>
      {setup && <LocalPrinterSetup onClose={() => setSetup(false)} />}
      {raster.portal}
    </Flex>
  );
}
