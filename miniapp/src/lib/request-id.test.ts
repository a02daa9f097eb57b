import { describe, expect, it } from 'vitest';
import { PendingRequestIds } from './request-id';

describe('PendingRequestIds', () => {
  it('keeps a request its id until it succeeds, and a different request gets its own', () => {
    let n = 0;
    const next = () => `id-${String(++n)}`;
    const ids = new PendingRequestIds();
    const request = { user_id: 7, amount: 500 };
    expect(ids.idFor(request, next)).toBe('id-1');
    expect(ids.idFor({ amount: 500, user_id: 7 }, next)).toBe('id-2');
    expect(ids.idFor({ ...request }, next)).toBe('id-1');
    ids.done(request);
    expect(ids.idFor(request, next)).toBe('id-3');
  });
});
