import { describe, expect, it } from 'vitest';
import { formatAmount, formatDate, formatDateTime, formatMoney, formatTime } from './format';

describe('dates and times (SPEC §9)', () => {
  const date = new Date(2026, 0, 5, 9, 7);

  it('formats dates as dd.mm.yyyy', () => {
    expect(formatDate(date)).toBe('05.01.2026');
    expect(formatDate(new Date(2026, 10, 22))).toBe('22.11.2026');
  });

  it('formats times as h:mm', () => {
    expect(formatTime(date)).toBe('9:07');
    expect(formatTime(new Date(2026, 0, 5, 21, 30))).toBe('21:30');
    expect(formatTime(new Date(2026, 0, 5, 0, 5))).toBe('0:05');
  });

  it('reads unix seconds as the API sends them', () => {
    const seconds = date.getTime() / 1000;
    expect(formatDate(seconds)).toBe('05.01.2026');
  });

  it('joins date and time with the Spanish "a las" unless told otherwise', () => {
    expect(formatDateTime(date)).toBe('05.01.2026 a las 9:07');
    expect(formatDateTime(date, 'at')).toBe('05.01.2026 at 9:07');
  });
});

describe('amounts (SPEC §9)', () => {
  it('groups thousands and shows 2 decimals in English', () => {
    expect(formatAmount('1234567.5', 'en')).toBe('1,234,567.50');
    expect(formatAmount('0', 'en')).toBe('0.00');
    expect(formatAmount(999, 'en')).toBe('999.00');
    expect(formatAmount('1000.129', 'en')).toBe('1,000.12');
    expect(formatAmount('-1500.00', 'en')).toBe('-1,500.00');
  });

  it('uses French separators in French', () => {
    expect(formatAmount('1234567.5', 'fr')).toBe('1\u202f234\u202f567,50');
    expect(formatAmount('12.3', 'fr')).toBe('12,30');
  });

  it('puts the currency where each language puts it', () => {
    expect(formatMoney('1234.5', 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney('1234.5', 'EUR', 'fr')).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney('10', 'JPY', 'en')).toBe('10.00\u00a0JPY');
  });
});
