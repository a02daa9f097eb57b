import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@/lib/storage';
import { currentTrackId, HIT_DELAY_MS, hitUrl, resetHitForTests, rewriteTrackId, scheduleHit } from './hit';

describe('hit beacon (SPEC §2, §7, §9)', () => {
  beforeEach(() => {
    resetHitForTests();
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rewrites a td_ track id and leaves others alone', () => {
    expect(rewriteTrackId('td_abc123')).toBe('abc123');
    expect(rewriteTrackId('aff_td_1')).toBe('aff_td_1');
    expect(hitUrl({ referer: 'https://ref.example/x', trackId: 'td_42', seonSession: null })).toBe(
      '/hit?referer=https%3A%2F%2Fref.example%2Fx&track_id=42',
    );
    expect(hitUrl({ referer: null, trackId: null, seonSession: 's1' })).toBe('/hit?seon_session=s1');
  });

  it('takes the track id from the address, else from the remembered tracking parameters', () => {
    expect(currentTrackId('?track_id=td_9')).toBe('td_9');
    window.localStorage.setItem(STORAGE_KEYS.tracking, JSON.stringify({ track_id: 'kept' }));
    expect(currentTrackId('')).toBe('kept');
  });

  it('sends one image beacon 3 s after start', () => {
    vi.useFakeTimers();
    const sources: string[] = [];
    vi.stubGlobal(
      'Image',
      class {
        set src(value: string) {
          sources.push(value);
        }
      },
    );
    window.history.replaceState(null, '', '/?track_id=td_77');
    scheduleHit();
    scheduleHit();
    vi.advanceTimersByTime(HIT_DELAY_MS - 1);
    expect(sources).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sources).toEqual(['/hit?track_id=77']);
    window.history.replaceState(null, '', '/');
  });
});
