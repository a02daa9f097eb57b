import { describe, expect, it } from 'vitest';
import { bannersAt, flattenContent, type Banner } from './content';

describe('flattenContent (SPEC §3)', () => {
  it('removes data/attributes wrappers and turns media into its url', () => {
    const answer = {
      data: [
        {
          id: 1,
          attributes: {
            title: 'Welcome',
            position: 'home-top',
            image: { data: { id: 7, attributes: { url: '/uploads/a.svg', mime: 'image/svg+xml', alternativeText: 'A' } } },
            imageMobile: { data: null },
          },
        },
      ],
      meta: { pagination: { total: 1 } },
    };
    expect(flattenContent(answer)).toEqual([{ id: 1, title: 'Welcome', position: 'home-top', image: '/uploads/a.svg', imageMobile: null }]);
  });

  it('flattens single types and keeps plain objects', () => {
    expect(flattenContent({ data: { id: 3, attributes: { isExist: true, nested: { a: 1 } } }, meta: {} })).toEqual({
      id: 3,
      isExist: true,
      nested: { a: 1 },
    });
  });
});

describe('bannersAt', () => {
  it('keeps live banners of the position in order', () => {
    const banners: Banner[] = [
      { id: 1, position: 'home-top', order: 2 },
      { id: 2, position: 'home-top', order: 1 },
      { id: 3, position: 'side', order: 0 },
      { id: 4, position: 'home-top', order: 0, finishedAt: '2020-01-01T00:00:00Z' },
    ];
    expect(bannersAt(banners, 'home-top', Date.parse('2026-01-01')).map((b) => b.id)).toEqual([2, 1]);
  });
});
