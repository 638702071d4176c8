import { describe, expect, it } from 'vitest';
import { isValidSerial, luhnValid, serialsField, serialText } from './serials.ts';

describe('serial and IMEI numbers', () => {
  it('an IMEI (15 digits) must carry its Luhn check digit; other serials are free', () => {
    // 49015420323751 8: the Luhn example of the GSMA's IMEI guide
    expect(luhnValid('490154203237518')).toBe(true);
    expect(isValidSerial('490154203237518')).toBe(true);
    expect(isValidSerial('490154203237519')).toBe(false);
    expect(isValidSerial('SN-A1/77.2')).toBe(true);
    expect(isValidSerial('49015420323751')).toBe(true);
  });

  it('a typed serial is trimmed and upper case; a wrong one names its message', () => {
    expect(serialText.parse('  sn-a1 ')).toBe('SN-A1');
    const wrong = serialText.safeParse('490154203237519');
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({ params: { message: 'serial.imei' } });
    expect(serialText.safeParse('a b').error?.issues[0]).toMatchObject({ params: { message: 'serial.format' } });
  });

  it('a line names each serial once; absent, none', () => {
    expect(serialsField.parse(undefined)).toEqual([]);
    expect(serialsField.safeParse(['A1', 'a1']).error?.issues[0]).toMatchObject({
      params: { message: 'serial.duplicate' },
    });
  });
});
