import { useLocation, useNavigate } from 'react-router';
import { resolveColorMode, useColorModePreference, useSystemPrefersDark } from '../lib/colorMode.ts';
import { localeFromPath } from '../lib/locale.ts';
import { useSettings } from '../lib/settings.ts';
import { SignInPage } from '../signin/SignInPage.tsx';

/**
 * The sign-in page inside the app (after a sign-out, a session that ended, a development server):
 * the same page the server sends on its own (signin/main.tsx), moved about by the router. Root
 * already shows the notices and sets the colour mode.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const locale = localeFromPath(useLocation().pathname);
  const { settings } = useSettings();
  const dark =
    resolveColorMode({
      darkAllowed: settings.dark_mode,
      preference: useColorModePreference(),
      systemDark: useSystemPrefersDark(),
    }) === 'dark';
  return <SignInPage locale={locale} settings={settings} dark={dark} navigate={(path) => void navigate(path)} />;
}
