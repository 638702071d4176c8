import texts from 'virtual:sign-in-texts';
import { type Locale, type LoginBody, localeInfo, loginBody, type PublicSettings, titleOf } from '@depot/contracts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { landingPath } from '../lib/access.tsx';
import { login } from '../lib/auth.ts';
import { COLOR_MODES, type ColorMode, setColorModePreference, useColorModePreference } from '../lib/colorMode.ts';
import { readableColour } from '../lib/contrast.ts';
import { htmlLang, localePath, saveLocaleCookie } from '../lib/locale.ts';
import { fontStack } from '../lib/publicSettings.ts';
import {
  DesktopOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  GlobalOutlined,
  Icon,
  LockOutlined,
  MoonOutlined,
  SunOutlined,
  UserOutlined,
} from './icons.tsx';
import type { SignInKey } from './keys.ts';

/** Loaded when a message is first needed, and as soon as the user types (see messages.ts). */
const messages = () => import('./messages.ts');

type Field = keyof LoginBody;
type Errors = Partial<Record<Field, string[]>>;
const FIELDS: readonly Field[] = ['name', 'password'];
const modeIcons = { light: SunOutlined, dark: MoonOutlined, system: DesktopOutlined };

export interface SignInPageProps {
  locale: Locale;
  settings: PublicSettings;
  /** The page's colour mode as drawn (the host resolves the preference, the settings and the device). */
  dark: boolean;
  /** Goes to an address: the same page in the other language, or where the signed-in user starts. */
  navigate: (path: string) => void;
  /** Banners the host shows over the page (settings that failed, a new version). */
  notices?: ReactNode;
  /** The user began to type: the host may fetch what comes after sign-in meanwhile. */
  onTyping?: () => void;
}

/** The words of the page, in its language (signin/keys.ts). */
export function signInText(locale: Locale): (key: SignInKey) => string {
  return (key) => texts[locale][key];
}

/**
 * The sign-in page, whole: plain React and one stylesheet (signin.css), without antd, the router or
 * the catalogues, so a till on a slow link can type at once (issue 34). The same schema as the
 * server checks the fields first; the server's own refusals land on their fields or above them.
 */
export function SignInPage({ locale, settings, dark, navigate, notices, onTyping }: SignInPageProps) {
  const t = signInText(locale);
  const [values, setValues] = useState<LoginBody>({ name: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [shown, setShown] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const primary = readableColour(settings.primary_color, dark ? 'dark' : 'light');

  // a later check wins over an earlier one still waiting for the messages
  const checks = useRef(0);
  const check = async (next: LoginBody): Promise<Errors | null> => {
    const turn = ++checks.current;
    const parsed = loginBody.safeParse(next, { reportInput: true });
    const found = parsed.success ? {} : (await messages()).issuesToErrors(parsed.error.issues, locale);
    return turn === checks.current ? (found as Errors) : null;
  };

  // messages already on screen follow a language switch
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language is the trigger, not an input
  useEffect(() => {
    if (checked) void check(values).then((found) => found && setErrors(found));
  }, [locale]);

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setError(null);
    void messages();
    onTyping?.();
    // a field that shows a message is checked again as it is typed into
    if (errors[field])
      void check(next).then((found) => found && setErrors((now) => ({ ...now, [field]: found[field] })));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = await check(values);
    if (!found) return;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setChecked(true);
      inputs.current[FIELDS.find((field) => found[field]) ?? 'name']?.focus();
      return;
    }
    onTyping?.();
    setErrors({});
    setError(null);
    setSubmitting(true);
    const result = await login(loginBody.parse(values));
    if (result.ok) {
      navigate(localePath(landingPath(), locale));
      return;
    }
    setSubmitting(false);
    const placed: Errors = {};
    const rest: string[] = [];
    for (const [key, texts] of Object.entries(result.errors ?? {})) {
      if ((FIELDS as readonly string[]).includes(key)) placed[key as Field] = texts;
      else rest.push(...texts);
    }
    setErrors(placed);
    setChecked(false);
    const first = FIELDS.find((field) => placed[field]);
    if (first) inputs.current[first]?.focus();
    if (result.errors && rest.length === 0) return;
    setError(rest[0] ?? result.message ?? (await messages()).translate('error.server', locale));
  };

  const other: Locale = locale === 'kh' ? 'en' : 'kh';
  const switchLanguage = () => {
    saveLocaleCookie(other);
    navigate(localePath('/login', other) + window.location.search);
  };

  return (
    <div
      className="si-page"
      style={
        {
          '--si-primary': primary.drawn,
          '--si-on-primary': primary.onFill,
          '--si-font': fontStack(settings.font_family),
          ...(dark ? {} : { '--si-layout': settings.background_color }),
        } as React.CSSProperties
      }
    >
      <header className="si-header">
        {settings.dark_mode && <ColorModeSwitch t={t} />}
        <button
          type="button"
          className="si-button"
          data-testid="lang-switch"
          title={t('common.language')}
          onClick={switchLanguage}
        >
          <Icon of={GlobalOutlined} />
          <span lang={htmlLang(other)}>{localeInfo[other].name}</span>
        </button>
      </header>
      {notices}
      <main className="si-main">
        <div className="si-card">
          <div className="si-brand">
            <img src={settings.logo_url ?? '/favicon.svg'} alt="" width={64} height={64} />
            <h1 data-testid="app-title">{titleOf(settings, locale)}</h1>
          </div>
          <form data-testid="login-form" noValidate onSubmit={submit} aria-busy={submitting}>
            <p className="si-subtitle">{t('login.subtitle')}</p>
            {error && (
              <div data-testid="login-error" className="si-alert si-alert-error" role="alert">
                {error}
              </div>
            )}
            {FIELDS.map((field) => {
              const id = `login-${field}`;
              const messages = errors[field] ?? [];
              const password = field === 'password';
              return (
                <div key={field} className="si-field">
                  <label htmlFor={id}>{t(`login.${field}`)}</label>
                  <div className={`si-input${messages.length ? ' si-input-error' : ''}`}>
                    <Icon of={password ? LockOutlined : UserOutlined} />
                    <input
                      ref={(input) => {
                        inputs.current[field] = input;
                      }}
                      id={id}
                      name={field}
                      data-testid={id}
                      type={password && !shown ? 'password' : 'text'}
                      value={values[field]}
                      onChange={(event) => change(field, event.target.value)}
                      placeholder={t(`login.${field}Placeholder`)}
                      autoComplete={password ? 'current-password' : 'username'}
                      autoCapitalize="none"
                      spellCheck={false}
                      // biome-ignore lint/a11y/noAutofocus: the page has one thing to do, signing in
                      autoFocus={!password}
                      disabled={submitting}
                      aria-invalid={messages.length > 0}
                      aria-describedby={messages.length ? `${id}-error` : undefined}
                    />
                    {password && (
                      <button
                        type="button"
                        className="si-reveal"
                        aria-pressed={shown}
                        aria-label={t(shown ? 'login.hidePassword' : 'login.showPassword')}
                        onClick={() => setShown(!shown)}
                        disabled={submitting}
                      >
                        <Icon of={shown ? EyeOutlined : EyeInvisibleOutlined} />
                      </button>
                    )}
                  </div>
                  {messages.length > 0 && (
                    <div id={`${id}-error`} className="si-field-error">
                      {messages.join(' ')}
                    </div>
                  )}
                </div>
              );
            })}
            <button data-testid="login-submit" type="submit" className="si-button si-primary" disabled={submitting}>
              {submitting && <span className="si-spinner" aria-hidden="true" />}
              {t('login.submit')}
            </button>
          </form>
        </div>
      </main>
      <footer data-testid="app-footer" className="si-footer">
        {settings.footer_text}
      </footer>
    </div>
  );
}

/** Light, dark or the device's setting (shown when the settings allow dark mode). */
function ColorModeSwitch({ t }: { t: (key: SignInKey) => string }) {
  const preference = useColorModePreference();
  return (
    <div className="si-segmented" role="radiogroup" aria-label={t('colorMode.label')} data-testid="color-mode">
      {COLOR_MODES.map((mode: ColorMode) => (
        // biome-ignore lint/a11y/useSemanticElements: three buttons read as one choice
        <button
          key={mode}
          type="button"
          role="radio"
          aria-checked={preference === mode}
          title={t(`colorMode.${mode}`)}
          onClick={() => setColorModePreference(mode)}
        >
          <span data-testid={`color-mode-${mode}`} role="img" aria-label={t(`colorMode.${mode}`)}>
            <Icon of={modeIcons[mode]} />
          </span>
        </button>
      ))}
    </div>
  );
}
