import { describe, expect, it } from 'vitest';
import { convertAmount, type CurrencyRates } from './api';

const rates: CurrencyRates = { base: 'USD', rates: [{ currency: 'USD', rate: '1' }, { currency: 'EUR', rate: '0.92' }, { currency: 'CAD', rate: '1.36' }] };

describe('convertAmount', () => {
  it('converts through the base currency in integers, rounding half up', () => {
    expect(convertAmount('92.00', 'EUR', 'USD', rates)).toBe('100.00');
    expect(convertAmount('100.00', 'USD', 'EUR', rates)).toBe('92.00');
    expect(convertAmount('10.00', 'EUR', 'CAD', rates)).toBe('14.78');
    expect(convertAmount('0.01', 'USD', 'EUR', rates)).toBe('0.01');
    expect(convertAmount('123456789.99', 'USD', 'USD', rates)).toBe('123456789.99');
  });

  it('answers nothing without a rate or with a malformed amount', () => {
    expect(convertAmount('1.00', 'GBP', 'USD', rates)).toBeNull();
    expect(convertAmount('1,00', 'EUR', 'USD', rates)).toBeNull();
    expect(convertAmount('1.00', 'EUR', 'USD', { base: 'USD', rates: [{ currency: 'EUR', rate: '0' }] })).toBeNull();
  });
});
