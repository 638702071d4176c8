import { numeralsFor, setNumerals, titleOf } from '@depot/contracts';
import { Alert, ConfigProvider, Flex } from 'antd';
// The ES builds: `antd/locale/*` re-export CommonJS copies that bundle twice.
import en_US from 'antd/es/locale/en_US.js';
import { Fragment, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { Splash } from '../components/Splash.tsx';
import { antdKhmer } from '../lib/antdKhmer.ts';
import {
  applyColorModeClass,
  resolveColorMode,
  useColorModePreference,
  useSystemPrefersDark,
  useSystemPrefersReducedMotion,
} from '../lib/colorMode.ts';
import { localeFromPath } from '../lib/locale.ts';
import { setFavicon } from '../lib/pageHead.ts';
import { useSettings } from '../lib/settings.ts';
import { themeFor } from '../lib/theme.ts';
import { NewVersionNotice } from './NewVersionNotice.tsx';
import { useForcedColorMode } from './routeHandle.ts';

const antdLocales = { kh: antdKhmer, en: en_US };

/**
 * How long a browser that never read the settings waits for their first answer before it draws the
 * page with the defaults (a server that is slow to answer, or retried after failing).
 */
export const FIRST_SETTINGS_WAIT_MS = 3000;

/**
 * False while the page waits for the first settings: drawn before them, the page would be drawn again
 * from scratch when they turn Khmer numerals on, and what was typed meanwhile would be gone. Once
 * true it stays true: a query with no settings is pending again while it is read again (a page
 * mounting after a failure reads it again), and hiding the page then would unmount that page, fail,
 * draw it, read again, round and round.
 */
function useReadyToDraw(settled: boolean): boolean {
  const [ready, setReady] = useState(settled);
  if (settled && !ready) setReady(true);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setReady(true), FIRST_SETTINGS_WAIT_MS);
    return () => clearTimeout(timer);
  }, [ready]);
  return ready;
}

/**
 * Spec section 8: the page goes on with the settings this browser last read (else the defaults), and
 * says so until closed. A banner, not antd's message toast, whose notification code would otherwise
 * load with the sign-in page.
 */
function SettingsFailureNotice({ failed }: { failed: boolean }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(false);
  if (!failed || dismissed) return null;
  return (
    <Alert
      data-testid="settings-failed"
      type="warning"
      showIcon
      title={t('errors.settings')}
      closable={{ onClose: () => setDismissed(true) }}
    />
  );
}

/**
 * Providers every page shares: language, theme, colour mode and motion, the settings, the
 * new-version notice.
 */
export function Root() {
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const { settings, failed, settled } = useSettings();
  const ready = useReadyToDraw(settled);
  const forced = useForcedColorMode();
  const preference = useColorModePreference();
  const systemDark = useSystemPrefersDark();
  const reducedMotion = useSystemPrefersReducedMotion();
  // The page's numerals, set before anything below renders a figure (contracts numerals.ts).
  const numerals = numeralsFor(settings.khmer_numerals, locale);
  setNumerals(numerals);
  const mode = resolveColorMode({ forced, darkAllowed: settings.dark_mode, preference, systemDark });

  useLayoutEffect(() => applyColorModeClass(mode), [mode]);
  useEffect(() => {
    if (forced === 'system') console.warn('A page forces the colour mode "system"; force light or dark instead.');
  }, [forced]);
  const title = titleOf(settings, locale);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    setFavicon(settings.favicon_url ?? '/favicon.svg');
  }, [settings.favicon_url]);

  const themeConfig = useMemo(() => themeFor(settings, mode, { reducedMotion }), [settings, mode, reducedMotion]);

  return (
    <ConfigProvider locale={antdLocales[locale]} theme={themeConfig}>
      <Flex
        vertical
        gap={8}
        style={{ position: 'fixed', insetInlineEnd: 16, insetBlockEnd: 16, zIndex: 1100, maxWidth: 420 }}
      >
        <SettingsFailureNotice failed={failed} />
        <NewVersionNotice />
      </Flex>
      {/* every figure on the page is drawn again in the numerals now shown */}
      {ready ? (
        <Fragment key={numerals}>
          <Outlet />
        </Fragment>
      ) : (
        <Splash />
      )}
    </ConfigProvider>
  );
}
