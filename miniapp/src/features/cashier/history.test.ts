import { describe, expect, it } from 'vitest';
import { HISTORY_PAGE_SIZE } from './api';
import { historyTab, nextOffset } from './history-page';

describe('payment history', () => {
  it('pages by 4 (SPEC §9)', () => {
    expect(HISTORY_PAGE_SIZE).toBe(4);
    expect(nextOffset(4, 9, 4)).toBe(4);
    expect(nextOffset(8, 9, 4)).toBe(8);
    expect(nextOffset(9, 9, 1)).toBeUndefined();
    expect(nextOffset(4, 4, 4)).toBeUndefined();
  });

  it('reads the tab query parameter', () => {
    expect(historyTab('withdrawal')).toBe('withdrawal');
    expect(historyTab('cashbacks')).toBe('cashbacks');
    expect(historyTab('nope')).toBe('deposit');
    expect(historyTab(null)).toBe('deposit');
  });
});
