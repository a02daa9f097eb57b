import { describe, expect, it } from 'vitest';
import { amountToMinor, currencyDecimals, minorToAmount } from './minor-units';

describe('minor units', () => {
  it('turns integer minor units into a decimal amount without floating point', () => {
    expect(minorToAmount(123_456, 2)).toBe('1234.56');
    expect(minorToAmount(5, 2)).toBe('0.05');
    expect(minorToAmount(0, 2)).toBe('0.00');
    expect(minorToAmount(-250, 2)).toBe('-2.50');
    expect(minorToAmount(1200, 0)).toBe('1200');
  });

  it('knows the currencies without decimals', () => {
    expect(currencyDecimals('USD')).toBe(2);
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('EUR')).toBe(2);
    expect(currencyDecimals('BHD')).toBe(3);
  });

  it('writes big and negative amounts exactly, as numbers or bigints', () => {
    expect(minorToAmount(9_007_199_254_740_991, 2)).toBe('90071992547409.91');
    expect(minorToAmount(-5, 2)).toBe('-0.05');
    expect(minorToAmount(-250n, 2)).toBe('-2.50');
    expect(minorToAmount(1200n, 0)).toBe('1200');
  });

  it('reads typed amounts in minor units without floating point', () => {
    expect(amountToMinor('12.5', 2)).toBe(1250n);
    expect(amountToMinor('0,10', 2)).toBe(10n);
    expect(amountToMinor('1.005', 2)).toBeNull();
    expect(amountToMinor('500', 0)).toBe(500n);
    expect(amountToMinor('-1', 2)).toBeNull();
    expect(amountToMinor('', 2)).toBeNull();
    expect(amountToMinor('1e3', 2)).toBeNull();
  });
});
