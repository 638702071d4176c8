import { LOCALE_COOKIE } from '@depot/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp } from '../test/render.tsx';
import { detectLocale, readLocaleCookie, settleStartupLocale } from './locale.ts';

function browserLanguages(languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}

/** Every string written to document.cookie, attributes included. */
function watchCookies(): string[] {
  const written: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie') as PropertyDescriptor;
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    written.push(value);
    descriptor.set?.call(document, value);
  });
  return written;
}

describe('locale detection', () => {
  it('prefers the cookie over the browser', () => {
    expect(detectLocale(`${LOCALE_COOKIE}=en`, ['km-KH', 'km'])).toBe('en');
    expect(detectLocale(`other=1; ${LOCALE_COOKIE}=kh`, ['en-US'])).toBe('kh');
  });

  it('then the first browser language it knows', () => {
    expect(detectLocale('', ['fr-FR', 'km-KH', 'en-US'])).toBe('kh');
    expect(detectLocale('', ['en-GB', 'km'])).toBe('en');
    expect(detectLocale(`${LOCALE_COOKIE}=xx`, ['km'])).toBe('kh');
  });

  it('then English', () => {
    expect(detectLocale('', ['fr-FR', 'th'])).toBe('en');
    expect(detectLocale('', [])).toBe('en');
  });

  it('saves the cookie for a year, on every path, SameSite=Lax', () => {
    browserLanguages(['km-KH']);
    const written = watchCookies();
    window.history.replaceState(null, '', '/dashboards');
    settleStartupLocale();
    expect(written).toHaveLength(1);
    const [pair, ...attributes] = written[0].split(';').map((part) => part.trim());
    expect(pair).toBe(`${LOCALE_COOKIE}=kh`);
    expect(attributes).toEqual(expect.arrayContaining(['Max-Age=31536000', 'Path=/', 'SameSite=Lax']));
    expect(readLocaleCookie(document.cookie)).toBe('kh');
  });

  it('moves the page under the detected language at start-up, keeping the query', () => {
    browserLanguages(['en-US']);
    window.history.replaceState(null, '', '/dashboards?tab=2');
    expect(settleStartupLocale()).toBe('en');
    expect(window.location.pathname + window.location.search).toBe('/en/dashboards?tab=2');
  });

  it('moves an English address to Khmer when the cookie says so', () => {
    browserLanguages(['en-US']);
    // biome-ignore lint/suspicious/noDocumentCookie: arranging the browser's state
    document.cookie = `${LOCALE_COOKIE}=kh; Path=/`;
    window.history.replaceState(null, '', '/en/login');
    expect(settleStartupLocale()).toBe('kh');
    expect(window.location.pathname).toBe('/login');
  });
});

describe('language switch', () => {
  it('goes to the same page in the other language and remembers the choice', async () => {
    mockFetch();
    const written = watchCookies();
    const { user, path } = renderApp('/login');
    const toggle = await screen.findByTestId('lang-switch');
    expect(toggle.textContent).toContain('English');
    expect(screen.getByTestId('login-submit').textContent).toBe('ចូល');

    await user.click(toggle);
    await waitFor(() => expect(path()).toBe('/en/login'));
    expect(await screen.findByText('Sign in')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('lang-switch').textContent).toContain('ខ្មែរ'));
    expect(document.documentElement.lang).toBe('en');
    expect(written.at(-1)).toContain(`${LOCALE_COOKIE}=en`);

    await user.click(screen.getByTestId('lang-switch'));
    await waitFor(() => expect(path()).toBe('/login'));
    expect(document.documentElement.lang).toBe('km');
    expect(written.at(-1)).toContain(`${LOCALE_COOKIE}=kh`);
  });

  it('keeps what was typed', async () => {
    mockFetch();
    const { user } = renderApp('/login');
    await user.type(await screen.findByTestId('login-name'), 'dara');
    await user.click(screen.getByTestId('lang-switch'));
    expect(await screen.findByText('Sign in')).toBeTruthy();
    expect((screen.getByTestId('login-name') as HTMLInputElement).value).toBe('dara');
  });
});
