import { describe, expect, it } from 'vitest';
import { presetsFor, requisitesText, wholeUnits, type PaymentMethod } from './api';

const card: PaymentMethod = {
  sysname: 'sandbox_card',
  name: 'Card',
  min: { amount: '10.00', currency: 'USD' },
  max: { amount: '5000.00', currency: 'USD' },
  requisites: [],
};

describe('cashier helpers', () => {
  it('keeps the presets of the currency that fit the method', () => {
    const presets = [
      { currency: 'EUR', amount: [{ value: 1 }] },
      { currency: 'USD', amount: [{ value: 5 }, { value: 10 }, { value: 50 }, { value: 10_000 }] },
    ];
    expect(presetsFor(presets, 'USD', card)).toEqual([10, 50]);
    expect(presetsFor(presets, 'USD', undefined)).toEqual([5, 10, 50, 10_000]);
    expect(presetsFor(presets, 'GBP', card)).toEqual([]);
  });

  it('joins the filled requisites in the method order', () => {
    expect(requisitesText({ iban: ' FR76 ', bank: 'bnp', extra: 'x' }, ['bank', 'iban'])).toBe('bank=bnp\niban=FR76');
    expect(requisitesText({}, ['bank'])).toBe('');
  });

  it('reads whole units of money strings', () => {
    expect(wholeUnits('5000.00')).toBe(5000);
    expect(wholeUnits('10.50')).toBe(10);
  });
});
