import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bet, PlaceRequest } from './api/bets';
import { placeSlip } from './place';
import { clearSlip, setStake, slipStore, toggleSelection } from './slip-store';

const sent: PlaceRequest[] = [];
let failNext = false;

vi.mock('./api/bets', async (original) => ({
  ...(await original<typeof import('./api/bets')>()),
  placeBet: (request: PlaceRequest): Promise<Bet> => {
    sent.push(request);
    if (failNext) {
      failNext = false;
      return Promise.reject(new TypeError('Failed to fetch'));
    }
    return Promise.resolve({ id: sent.length } as unknown as Bet);
  },
}));

function pickOne() {
  toggleSelection({ selectionId: 7, eventId: 1, event: 'A v B', market: '1x2', selection: 'home', odds: '2.00' });
  setStake('1');
}

describe('placeSlip', () => {
  afterEach(() => {
    clearSlip();
    sent.length = 0;
  });

  it('sends the same request id again after a lost answer, and a new one for the next bet', async () => {
    let n = 0;
    const newId = () => `id-${String((n += 1))}`;
    pickOne();
    failNext = true;
    await expect(placeSlip(newId)).rejects.toThrow('Failed to fetch');
    expect(slipStore.get().entries).toHaveLength(1);
    await placeSlip(newId);
    expect(sent.map((r) => r.request_id)).toEqual(['id-1', 'id-1']);
    expect(slipStore.get().entries).toHaveLength(0);
    // The same slip placed again on purpose is a new bet.
    pickOne();
    await placeSlip(newId);
    expect(sent[2]?.request_id).toBe('id-2');
  });
});
