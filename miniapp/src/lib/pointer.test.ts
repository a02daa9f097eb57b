import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPointerRelease, watchPointerPresses } from './pointer';

afterEach(() => {
  vi.useRealTimers();
});

describe('afterPointerRelease', () => {
  it('runs at once when no pointer is pressed', () => {
    const run = vi.fn();
    afterPointerRelease(run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('waits for the press and its click to finish, so a message cannot move the control being clicked', () => {
    vi.useFakeTimers();
    watchPointerPresses();
    const run = vi.fn();
    document.dispatchEvent(new Event('pointerdown'));
    afterPointerRelease(run);
    expect(run).not.toHaveBeenCalled();

    document.dispatchEvent(new Event('pointerup'));
    expect(run).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(run).toHaveBeenCalledTimes(1);
  });
});
