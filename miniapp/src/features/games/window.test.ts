import { describe, expect, it } from 'vitest';
import { alignToColumns, MAX_RENDERED_ITEMS, RENDER_BUFFER, renderWindow, rowsFor } from './window';

describe('renderWindow (SPEC §9: at most 1000 rendered, buffer 200)', () => {
  it('uses the SPEC constants', () => {
    expect(MAX_RENDERED_ITEMS).toBe(1000);
    expect(RENDER_BUFFER).toBe(200);
  });

  it('renders short lists whole', () => {
    expect(renderWindow(0, 0, 0)).toEqual({ start: 0, end: 0 });
    expect(renderWindow(1000, 500, 510)).toEqual({ start: 0, end: 1000 });
  });

  it('keeps 200 items either side of the visible ones in a long list', () => {
    expect(renderWindow(5000, 2000, 2030)).toEqual({ start: 1800, end: 2231 });
    expect(renderWindow(5000, 0, 30)).toEqual({ start: 0, end: 231 });
    expect(renderWindow(5000, 4990, 4999)).toEqual({ start: 4790, end: 5000 });
  });

  it('never renders more than the limit', () => {
    const window = renderWindow(10_000, 100, 5000);
    expect(window.end - window.start).toBe(1000);
    expect(window.start).toBe(0);
  });

  it('clamps out-of-range visible indexes', () => {
    expect(renderWindow(3000, -50, -10)).toEqual({ start: 0, end: 201 });
    expect(renderWindow(3000, 9000, 9100)).toEqual({ start: 2799, end: 3000 });
  });
});

describe('grid helpers', () => {
  it('aligns a window to the start of its row', () => {
    expect(alignToColumns({ start: 1803, end: 2231 }, 4)).toEqual({ start: 1800, end: 2231 });
    expect(alignToColumns({ start: 7, end: 9 }, 0)).toEqual({ start: 7, end: 9 });
  });

  it('counts grid rows', () => {
    expect(rowsFor(0, 3)).toBe(0);
    expect(rowsFor(7, 3)).toBe(3);
    expect(rowsFor(6, 3)).toBe(2);
  });
});
