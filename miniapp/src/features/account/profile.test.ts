import { describe, expect, it } from 'vitest';
import { limitChangeTiming } from './responsible-page';
import { changedFields, profileValues } from './settings-page';

const limit = (amount: string | null) => ({
  period: 'day',
  limit_amount: amount === null ? null : { amount, currency: 'USD' },
  available_amount: null,
  can_edit: true,
  expired_at: null,
});

describe('deposit limit changes (24-hour rule)', () => {
  it('applies new and lower limits at once', () => {
    expect(limitChangeTiming(undefined, '100')).toBe('now');
    expect(limitChangeTiming(limit(null), '100')).toBe('now');
    expect(limitChangeTiming(limit('100.00'), '50')).toBe('now');
    expect(limitChangeTiming(limit('100.00'), '100')).toBe('now');
  });

  it('waits 24 hours to raise or remove a limit', () => {
    expect(limitChangeTiming(limit('100.00'), '101')).toBe('after24h');
    expect(limitChangeTiming(limit('100.00'), '')).toBe('after24h');
    expect(limitChangeTiming(limit(null), ' ')).toBe('none');
  });
});

describe('personal data', () => {
  it('sends only the fields that changed', () => {
    const initial = profileValues({ first_name: 'Ann', last_name: null, sex: 2 } as never);
    expect(initial.sex).toBe('2');
    expect(changedFields(initial, { ...initial, last_name: ' Lee ', first_name: 'Ann ' })).toEqual({ last_name: 'Lee' });
  });
});
