/**
 * GTIN check digits (EAN-8, UPC-A, EAN-13, GTIN-14): a numeric code of one of those lengths must
 * end with its check digit. Other codes (a depot's own labels) are not checked.
 */
export function isGtinLength(code: string): boolean {
  return /^\d+$/.test(code) && [8, 12, 13, 14].includes(code.length);
}

export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidBarcode(code: string): boolean {
  if (!isGtinLength(code)) return true;
  return gtinCheckDigit(code.slice(0, -1)) === Number(code.at(-1));
}
