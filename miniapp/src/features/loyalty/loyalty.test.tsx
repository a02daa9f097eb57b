import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { progressPercent, type LoyaltyInfo, type Product } from './api/loyalty';

afterEach(async () => {
  vi.useRealTimers();
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };

function info(overrides: Partial<LoyaltyInfo> = {}): LoyaltyInfo {
  return {
    id: 42,
    is_active: true,
    points: 250,
    lifetime_points: 3000,
    level: 2,
    character: null,
    levels: [
      { level: 1, title: 'Bronze', description: '', min_points: 0, image: null, reward: null, reached: true },
      { level: 2, title: 'Silver', description: '', min_points: 1000, image: null, reward: { amount: '10.00', currency: 'USD' }, reached: true },
      { level: 3, title: 'Gold', description: '', min_points: 5000, image: null, reward: null, reached: false },
    ],
    progress: { minValue: 1000, maxValue: 5000, expCount: 3000 },
    pointsAlias: 'chips',
    uid: 'L-000042',
    ...overrides,
  };
}

function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 5,
    sysname: 'bonus-5',
    title: '5 bonus',
    description: 'Bonus money',
    image: null,
    price: 100,
    kind: 'bonus',
    min_level: 1,
    stock: null,
    available: true,
    ...overrides,
  };
}

describe('progressPercent', () => {
  it('is the share of the way from this level to the next, 100 at the top', () => {
    expect(progressPercent({ minValue: 1000, maxValue: 5000, expCount: 3000 })).toBe(50);
    expect(progressPercent({ minValue: 0, maxValue: 1000, expCount: 0 })).toBe(0);
    expect(progressPercent({ minValue: 0, maxValue: 1000, expCount: 999 })).toBe(99);
    expect(progressPercent({ minValue: 20000, maxValue: 20000, expCount: 25000 })).toBe(100);
    expect(progressPercent({ minValue: 1000, maxValue: 5000, expCount: -20 })).toBe(0);
  });
});

describe('/loyalty', () => {
  it('shows the points, the level, the progress, the levels and the quests', async () => {
    mockApi({
      ...signedIn,
      'loyalty.getinfo': info(),
      'loyalty.getPrograms': {
        items: [{ id: 1, sysname: 'first-steps', title: 'First steps', description: '', image: null, completed: 1, total: 3, quests: [] }],
      },
    });
    renderApp('/loyalty');
    expect(await screen.findByTestId('loyalty-points')).toHaveTextContent('250 chips');
    expect(screen.getByTestId('loyalty-level')).toHaveTextContent('Level 2: Silver');
    expect(screen.getByTestId('loyalty-progress')).toHaveAttribute('aria-valuenow', '50');
    const levels = screen.getAllByTestId('loyalty-level-item');
    expect(levels.map((l) => l.dataset.reached)).toEqual(['true', 'true', 'false']);
    const silver = levels[1];
    if (!silver) throw new Error('no level 2');
    expect(within(silver).getByText('Reward: $10.00 bonus')).toBeVisible();
    const program = await screen.findByTestId('loyalty-program');
    expect(program).toHaveAttribute('href', '/loyalty/first-steps');
  });

  it('asks a guest to sign in and calls nothing of the player', async () => {
    const api = mockApi({});
    renderApp('/loyalty');
    expect(await screen.findByTestId('loyalty-sign-in')).toBeVisible();
    expect(api.calls('loyalty.getinfo')).toHaveLength(0);
  });

  it('shows a programme’s quests with their progress, in French', async () => {
    await activateLocale('fr');
    mockApi({
      ...signedIn,
      'loyalty.getProgram': {
        id: 2, sysname: 'slot-explorer', title: 'Explorateur', description: '', image: null, completed: 0, total: 1,
        quests: [{ id: 9, sysname: 'q', title: 'Jouez 100 tours', description: '', target: 100, progress: 40, reward_points: 200, completed: false, completed_at: null }],
      },
    });
    renderApp('/fr/loyalty/slot-explorer');
    const quest = await screen.findByTestId('loyalty-quest');
    expect(quest).toHaveTextContent('40 sur 100');
    expect(quest).toHaveTextContent('+200 points');
  });
});

describe('/loyalty/shop', () => {
  it('buys once with one request id however often Buy is pressed, and says so', async () => {
    let points = 250;
    const api = mockApi({
      ...signedIn,
      'loyalty.getinfo': () => info({ points }),
      'loyalty.getproducts': { total: 1, items: [product()] },
      'loyalty.buyproduct': () => {
        points -= 100;
        return { purchase: { id: 1, product_id: 5, title: '5 bonus', price: 100, kind: 'bonus', created_at: 0 }, points };
      },
    });
    renderApp('/loyalty/shop');
    fireEvent.click(await within(await screen.findByTestId('shop-product')).findByTestId('shop-buy'));
    expect(await screen.findByTestId('shop-confirm-dialog')).toHaveTextContent('You will have 150 chips left.');
    const yes = screen.getByTestId('shop-confirm-yes');
    fireEvent.click(yes);
    fireEvent.click(yes);
    expect(await screen.findByTestId('shop-success')).toHaveTextContent('You have 150 chips left.');
    expect(api.calls('loyalty.buyproduct')).toHaveLength(1);
    const body = api.calls('loyalty.buyproduct')[0]?.body;
    expect(body?.get('product_id')).toBe('5');
    const requestId = body?.get('request_id');
    expect(typeof requestId === 'string' && requestId.length > 8).toBe(true);
  });

  it('opens the insufficient-funds dialog without a call when the points are short', async () => {
    const api = mockApi({
      ...signedIn,
      'loyalty.getinfo': info({ points: 50 }),
      'loyalty.getproducts': { total: 1, items: [product()] },
    });
    renderApp('/loyalty/shop');
    await screen.findByTestId('loyalty-points');
    fireEvent.click(await screen.findByTestId('shop-buy'));
    expect(await screen.findByTestId('shop-insufficient')).toHaveTextContent('50 chips more to go');
    expect(api.calls('loyalty.buyproduct')).toHaveLength(0);
  });

  it('opens the insufficient-funds dialog when the server says the points are short', async () => {
    mockApi({
      ...signedIn,
      'loyalty.getinfo': info(),
      'loyalty.getproducts': { total: 1, items: [product()] },
      'loyalty.buyproduct': apiError('InvalidParameterException', 422, { product_id: ['INSUFFICIENT_POINTS'] }),
    });
    renderApp('/loyalty/shop');
    await screen.findByTestId('loyalty-points');
    fireEvent.click(await screen.findByTestId('shop-buy'));
    fireEvent.click(await screen.findByTestId('shop-confirm-yes'));
    expect(await screen.findByTestId('shop-insufficient')).toBeVisible();
  });

  it('keeps a product above the player’s level out of reach', async () => {
    mockApi({
      ...signedIn,
      'loyalty.getinfo': info({ level: 1 }),
      'loyalty.getproducts': { total: 1, items: [product({ min_level: 2, available: false })] },
    });
    renderApp('/loyalty/shop');
    const card = await screen.findByTestId('shop-product');
    await waitFor(() => {
      expect(within(card).getByText('From level 2')).toBeVisible();
    });
    expect(within(card).getByTestId('shop-buy')).toBeDisabled();
  });
});

describe('/profile/loyalty', () => {
  it('changes the character through the choice and its confirmation', async () => {
    const api = mockApi({
      ...signedIn,
      'loyalty.getinfo': info(),
      'loyalty.getcharacters': {
        items: [
          { id: 1, sysname: 'rookie', title: 'The Rookie', description: '', image: null, min_level: 1, available: true, selected: false },
          { id: 3, sysname: 'high-roller', title: 'The High Roller', description: '', image: null, min_level: 3, available: false, selected: false },
        ],
      },
      'loyalty.setcharacter': info({ character: { id: 1, sysname: 'rookie', title: 'The Rookie', description: '', image: null } }),
    });
    renderApp('/profile/loyalty');
    fireEvent.click(await screen.findByTestId('character-change'));
    const options = await screen.findAllByTestId('character-option');
    expect(options[1]).toBeDisabled();
    const rookie = options[0];
    if (!rookie) throw new Error('no character');
    fireEvent.click(rookie);
    expect(await screen.findByTestId('character-confirm-dialog')).toHaveTextContent('The Rookie will be your character.');
    fireEvent.click(screen.getByTestId('character-confirm-yes'));
    await waitFor(() => {
      expect(api.calls('loyalty.setcharacter')).toHaveLength(1);
    });
    expect(api.calls('loyalty.setcharacter')[0]?.body?.get('id')).toBe('1');
  });
});

describe('loyalty notices', () => {
  it('are fetched on the first interaction, shown 300 ms later for 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({
      ...signedIn,
      'loyalty.getinfo': info(),
      'loyalty.getnotifications': {
        items: [{ id: 1, trigger: 'quest', type: 'credit', title: 'Quest completed', message: 'Well done.', amount: 50, amountType: 'points', image: null, created_at: 0 }],
      },
    });
    renderApp('/loyalty');
    await screen.findByTestId('loyalty-points');
    expect(api.calls('loyalty.getnotifications')).toHaveLength(0);
    fireEvent.pointerDown(document.body);
    await waitFor(() => {
      expect(api.calls('loyalty.getnotifications')).toHaveLength(1);
    });
    api.on('loyalty.getnotifications', { items: [] });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(screen.queryByTestId('loyalty-notice')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(250);
    });
    expect(screen.getByTestId('loyalty-notice')).toHaveTextContent('Quest completed');
    expect(screen.getByTestId('loyalty-notice')).toHaveTextContent('+50 points');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(screen.queryByTestId('loyalty-notice')).toBeNull();
  });
});
