import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bet, PlaceRequest } from './api/bets';
import { bonusFits, placeSlip, slipRequests } from './place';
import { clearSlip, setSlipKind, setStake, slipStore, toggleSelection } from './slip-store';

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

describe('slipRequests with a betting bonus', () => {
  afterEach(() => {
    clearSlip();
  });

  const freebet = { id: 41, kind: 'freebet' as const, amount: '10.00' };
  const boost = { id: 42, kind: 'odds_boost' as const, amount: null };

  it('stakes a free bet with its amount from the betting-bonus balance', () => {
    pickOne();
    const [request] = slipRequests(slipStore.get(), freebet);
    expect(request).toMatchObject({ stake: '10.00', funds: 'betting_bonus', betting_bonus_id: 41, kind: 'single' });
  });

  it('keeps the stake and main money for an odds boost', () => {
    pickOne();
    setStake('2,5');
    const [request] = slipRequests(slipStore.get(), boost);
    expect(request).toMatchObject({ stake: '2.5', funds: 'main', betting_bonus_id: 42 });
  });

  it('sends no bonus for several singles or a system, and places with the bonus the caller chose', async () => {
    pickOne();
    toggleSelection({ selectionId: 8, eventId: 2, event: 'C v D', market: '1x2', selection: 'away', odds: '3.00' });
    expect(bonusFits(slipStore.get())).toBe(false);
    expect(slipRequests(slipStore.get(), freebet).every((r) => r.betting_bonus_id === undefined && r.funds === 'main')).toBe(true);
    setSlipKind('accumulator', null);
    expect(bonusFits(slipStore.get())).toBe(true);
    await placeSlip(() => 'acc-1', boost);
    expect(sent.at(-1)).toMatchObject({ kind: 'accumulator', betting_bonus_id: 42, request_id: 'acc-1' });
    sent.length = 0;
  });
});
