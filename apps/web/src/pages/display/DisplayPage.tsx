import { LinkOutlined } from '@ant-design/icons';
import { type DisplayLine, type DisplayState, formatCount, formatKhr, formatUsd, IDLE_DISPLAY } from '@depot/contracts';
import { Alert, Button, Flex, Form, Input, Modal, Tag, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ColorModeSwitch } from '../../components/ColorModeSwitch.tsx';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { listenToTill } from '../../lib/customerDisplay.ts';
import { type DisplayPairing, forgetPairing, listenToPairing, pairWith, savedPairing } from '../../lib/displayLink.ts';
import { ApiError } from '../../lib/http.ts';
import { useSettings, useTitle } from '../../lib/settings.ts';
import { KhqrCard } from '../orders/khqr/KhqrCard.tsx';
import './display.css';

/** One line as the customer reads it: the name in the page's language (the other below), quantity × price, amount. */
function Line({ line }: { line: DisplayLine }) {
  const { locale } = useCtx();
  const [first, second] = locale === 'kh' ? [line.name_kh, line.name_en] : [line.name_en, line.name_kh];
  const unit = locale === 'kh' ? line.unit_kh || line.unit_en : line.unit_en || line.unit_kh;
  return (
    <li className="display-line" data-testid="display-line">
      <div className="display-line-name">
        <div className="display-line-first">{first || second}</div>
        {second && second !== first && <div className="display-line-second">{second}</div>}
        <div className="display-line-quantity" data-testid="display-line-quantity">
          {`${formatCount(line.quantity)}${unit ? ` ${unit}` : ''} × ${formatUsd(line.unit_price_cents)}`}
        </div>
      </div>
      <div className="display-line-amount">{formatUsd(line.amount_cents)}</div>
    </li>
  );
}

function Row({ label, children, testId, big }: { label: string; children: string; testId: string; big?: boolean }) {
  return (
    <div className={big ? 'display-row display-row-big' : 'display-row'}>
      <span>{label}</span>
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

/** The totals beside (landscape) or under (portrait) the lines: dollars and riel, then the tenders and the change. */
function Totals({ state }: { state: DisplayState }) {
  const { t } = useCtx();
  const paying = state.phase !== 'cart';
  const change = state.change_cents > 0 || state.change_khr > 0;
  return (
    <div className="display-totals" data-testid="display-totals">
      {state.discount_cents > 0 && (
        <Row label={t('pos.discount')} testId="display-discount">{`−${formatUsd(state.discount_cents)}`}</Row>
      )}
      {state.tax_cents > 0 && (
        <Row label={t('orders.vat')} testId="display-vat">
          {formatUsd(state.tax_cents)}
        </Row>
      )}
      {state.delivery_fee_cents > 0 && (
        <Row label={t('pos.deliveryFee')} testId="display-delivery">
          {formatUsd(state.delivery_fee_cents)}
        </Row>
      )}
      <div className="display-total">
        <div className="display-total-label">{t('orders.total')}</div>
        <div className="display-total-usd" data-testid="display-total-usd">
          {formatUsd(state.total_cents)}
        </div>
        <div className="display-total-khr" data-testid="display-total-khr">
          {formatKhr(state.total_khr)}
        </div>
      </div>
      {paying && state.tendered_cents > 0 && (
        <Row label={t('display.received')} testId="display-tendered">
          {formatUsd(state.tendered_cents)}
        </Row>
      )}
      {paying && !change && state.phase === 'paying' && state.tendered_cents > 0 && state.due_cents > 0 && (
        <Row label={t('display.due')} testId="display-due" big>
          {`${formatUsd(state.due_cents)} · ${formatKhr(state.due_khr)}`}
        </Row>
      )}
      {paying && change && (
        <div className="display-change" data-testid="display-change">
          <div className="display-total-label">{t('pay.change')}</div>
          <div className="display-change-usd" data-testid="display-change-usd">
            {formatUsd(state.change_cents)}
          </div>
          <div className="display-total-khr">
            {t('pay.orRiel')} <span data-testid="display-change-khr">{formatKhr(state.change_khr)}</span>
          </div>
        </div>
      )}
    </div>
  );
}

/** The shop's logo and name: large on the welcome, small above the totals during a sale. */
function Shop({ large }: { large?: boolean }) {
  const { settings } = useSettings();
  const title = useTitle();
  return (
    <Flex vertical={large} align="center" gap={large ? 24 : 12} className={large ? undefined : 'display-shop'}>
      <img className={large ? 'display-logo' : 'display-logo-small'} src={settings.logo_url ?? '/favicon.svg'} alt="" />
      {large ? <h1>{title}</h1> : <span>{title}</span>}
    </Flex>
  );
}

/** The welcome while no sale is under way: the shop's logo and name. */
function Welcome() {
  const { t } = useCtx();
  return (
    <Flex vertical align="center" justify="center" gap={24} className="display-welcome" data-testid="display-idle">
      <Shop large />
      <div className="display-welcome-text">{t('display.welcome')}</div>
    </Flex>
  );
}

/**
 * Pairing a tablet with a till: the code the till shows, typed here (or in the address, from the
 * till's QR: `/display?code=…`). A wrong code is the server's words under the field.
 */
function PairDialog({ onPaired, onClose }: { onPaired: (pairing: DisplayPairing) => void; onClose: () => void }) {
  const { t, locale } = useCtx();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      onPaired(await pairWith(code));
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.body?.errors?.code
          ? error.body.errors.code.join(' ')
          : failureMessage(error, locale),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('display.pair')}
      onCancel={onClose}
      okText={t('display.pairing')}
      cancelText={t('kit.cancel')}
      onOk={() => void submit()}
      okButtonProps={{ loading: busy, disabled: code.trim() === '', 'data-testid': 'display-pair-submit' } as never}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={t('display.code')} validateStatus={problem ? 'error' : undefined} help={problem}>
          <Input
            size="large"
            autoFocus
            autoComplete="off"
            value={code}
            maxLength={12}
            onChange={(event) => {
              setCode(event.target.value.toUpperCase());
              setProblem(null);
            }}
            style={{ fontSize: 28, letterSpacing: 4, fontFamily: 'monospace' }}
            data-testid="display-pair-code"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A tablet paired with a till: what the till sends over real time, until it unpairs. */
function usePairing(onState: (state: DisplayState) => void) {
  const [pairing, setPairing] = useState<DisplayPairing | null>(savedPairing);
  const [ended, setEnded] = useState(false);
  const [params, setParams] = useSearchParams();
  const [problem, setProblem] = useState<string | null>(null);
  const { locale } = useCtx();
  const latest = useRef(onState);
  latest.current = onState;

  // the till's QR carries its code: paired at once, and the code leaves the address
  const code = params.get('code');
  useEffect(() => {
    if (!code) return;
    setParams({}, { replace: true });
    pairWith(code).then(
      (made) => {
        setEnded(false);
        setPairing(made);
      },
      (error: unknown) =>
        setProblem(
          error instanceof ApiError && error.body?.errors?.code
            ? error.body.errors.code.join(' ')
            : failureMessage(error, locale),
        ),
    );
  }, [code, setParams, locale]);

  useEffect(() => {
    if (!pairing) return;
    return listenToPairing(
      pairing,
      (state) => latest.current(state),
      () => {
        forgetPairing();
        setPairing(null);
        setEnded(true);
        latest.current(IDLE_DISPLAY);
      },
    );
  }, [pairing]);

  return {
    pairing,
    ended,
    problem,
    paired: (made: DisplayPairing) => {
      setEnded(false);
      setProblem(null);
      setPairing(made);
    },
  };
}

/**
 * `/display`: the screen facing the customer. It shows only what the till sends
 * (lib/customerDisplay.ts): the welcome when idle, the lines as the sale grows (the newest in
 * view), the totals in dollars and riel, the change, the KHQR to scan, thanks once paid. It needs
 * no session and reads nothing of the back office; large type, landscape or portrait.
 */
export function DisplayPage() {
  const { t } = useCtx();
  const { token } = theme.useToken();
  const [state, setState] = useState<DisplayState>(IDLE_DISPLAY);
  const list = useRef<HTMLOListElement>(null);

  // a till in this browser answers at once: this window is its second screen, no pairing to offer
  const [besideTill, setBesideTill] = useState(false);
  useEffect(
    () =>
      listenToTill((next) => {
        setBesideTill(true);
        setState(next);
      }),
    [],
  );
  const link = usePairing(setState);
  const [pairing, setPairing] = useState(false);
  // the newest line in view
  const count = state.lines.length;
  useEffect(() => {
    if (count > 0) list.current?.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
  }, [count]);

  const body =
    state.phase === 'idle' || count === 0 ? (
      <Welcome />
    ) : (
      <div className="display-sale" data-phase={state.phase}>
        <section className="display-lines" aria-label={t('display.items')}>
          {state.earlier > 0 && (
            <div className="display-earlier" data-testid="display-earlier">
              {t('display.earlier', { count: state.earlier })}
            </div>
          )}
          <ol ref={list} data-testid="display-lines">
            {state.lines.map((line, index) => (
              // the till's order: a line's place is its identity on this screen
              // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id of their own here
              <Line key={index} line={line} />
            ))}
          </ol>
        </section>
        <aside className="display-side">
          <Shop />
          {state.khqr ? (
            <Flex vertical align="center" gap={12} data-testid="display-khqr">
              <div className="display-scan">{t('display.scan')}</div>
              <KhqrCard qr={state.khqr} size={280} />
            </Flex>
          ) : state.phase === 'done' ? (
            <div className="display-thanks" data-testid="display-thanks">
              {t('display.thanks')}
            </div>
          ) : null}
          <Totals state={state} />
        </aside>
      </div>
    );

  return (
    <main
      className="display"
      aria-label={t('display.title')}
      data-testid="display"
      style={{ background: token.colorBgLayout, color: token.colorText, fontFamily: token.fontFamily }}
    >
      <Flex className="display-corner" gap={8} align="center">
        {link.pairing ? (
          <Tag color="success" data-testid="display-linked">
            {t('display.paired')}
          </Tag>
        ) : besideTill ? null : (
          <Button icon={<LinkOutlined />} onClick={() => setPairing(true)} data-testid="display-pair">
            {t('display.pair')}
          </Button>
        )}
        <LanguageSwitch />
        <ColorModeSwitch />
      </Flex>
      {(link.ended || link.problem) && state.phase === 'idle' && (
        <Alert
          className="display-notice"
          type={link.problem ? 'error' : 'info'}
          showIcon
          title={link.problem ?? t('display.unpaired')}
          data-testid="display-notice"
        />
      )}
      {body}
      {pairing && (
        <PairDialog
          onClose={() => setPairing(false)}
          onPaired={(made) => {
            setPairing(false);
            link.paired(made);
          }}
        />
      )}
    </main>
  );
}
