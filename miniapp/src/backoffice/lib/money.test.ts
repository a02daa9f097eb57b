import { describe, expect, it } from 'vitest';
import { decimalToMinor, formatMoney, minorToDecimal } from './money';

describe('money', () => {
  it('writes minor units exactly', () => {
    expect(minorToDecimal(1050, 'EUR')).toBe('10.50');
    expect(minorToDecimal(-5, 'USD')).toBe('-0.05');
    expect(minorToDecimal(1234, 'JPY')).toBe('1234');
    expect(minorToDecimal(9_007_199_254_740_991, 'EUR')).toBe('90071992547409.91');
  });

  it('reads typed amounts into minor units, refusing more decimals than the currency has', () => {
    expect(decimalToMinor('2500', 'EUR')).toBe(250_000);
    expect(decimalToMinor('10,5', 'EUR')).toBe(1050);
    expect(decimalToMinor('0.07', 'USD')).toBe(7);
    expect(decimalToMinor('1.005', 'EUR')).toBeNull();
    expect(decimalToMinor('0', 'EUR')).toBeNull();
    expect(decimalToMinor('-3', 'EUR')).toBeNull();
    expect(decimalToMinor('1e3', 'EUR')).toBeNull();
    expect(decimalToMinor('12', 'JPY')).toBe(12);
  });

  it('formats in the console’s language', () => {
    expect(formatMoney(1050, 'EUR', 'en')).toBe('€10.50');
    expect(formatMoney(1050, 'EUR', 'fr').replace(/\s/g, ' ')).toBe('10,50 €');
  });
});
