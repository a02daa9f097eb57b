import { describe, expect, it } from 'vitest';
import { currencyDecimals, minorToAmount } from './minor-units';

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
  });
});
