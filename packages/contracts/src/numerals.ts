/**
 * Khmer numerals (០១២៣៤៥៦៧៨៩), a system setting for Khmer pages ("Khmer numerals on Khmer pages",
 * off by default). Every figure a person reads goes through `shownDigits` (format.ts: money, counts,
 * percentages, dates; pricing.ts `formatChange`): the web sets the
 * page's numerals once (`setNumerals`, from the settings and the page's language) and every screen
 * and print follows. The server never sets it: its messages pass the request's numerals to
 * messages.ts `translate` (http/locale.ts `say`); its PDFs convert their text when printed (kit/pdf.ts
 * `numerals`). What is typed is read with `latinDigits` (both accepted).
 */
export type Numerals = 'latin' | 'khmer';

const KHMER_DIGITS = '០១២៣៤៥៦៧៨៩';

let shown: Numerals = 'latin';

/** The numerals every formatter uses from now on (the web's Root sets it). */
export function setNumerals(numerals: Numerals): void {
  shown = numerals;
}

export function currentNumerals(): Numerals {
  return shown;
}

/** Which numerals a page shows: Khmer only on Khmer pages with the setting on. */
export function numeralsFor(khmerNumerals: boolean, locale: 'kh' | 'en'): Numerals {
  return khmerNumerals && locale === 'kh' ? 'khmer' : 'latin';
}

/** "១២.៥០" from "12.50": Latin digits written as Khmer digits, everything else untouched. */
export function khmerDigits(text: string): string {
  return text.replace(/[0-9]/g, (d) => KHMER_DIGITS[Number(d)] as string);
}

/** "12.50" from "១២.៥០" (what was typed with a Khmer keyboard), everything else untouched. */
export function latinDigits(text: string): string {
  return text.replace(/[០-៩]/g, (d) => String(KHMER_DIGITS.indexOf(d)));
}

/** A formatted text in the numerals shown (the current ones unless told). */
export function shownDigits(text: string, numerals: Numerals = shown): string {
  return numerals === 'khmer' ? khmerDigits(text) : text;
}
