import type { Bonus } from '@/features/bonuses/api/get-bonuses';
import type { Offer } from '@/features/bonuses/api/get-offers';

/** A bonus as `bonuses.get` answers it: a wagering welcome bonus unless told otherwise. */
export function bonus(overrides: Partial<Bonus> = {}): Bonus {
  return {
    id: 11,
    status: 'wagering',
    campaign_id: 1,
    title: 'Welcome bonus',
    description: '100% of your first deposit.',
    currency: 'USD',
    amount: '100.00',
    balance: '80.00',
    wager_target: '3500.00',
    wagered: '875.00',
    progress: 25,
    max_bet: '5.00',
    max_conversion: null,
    games: [],
    freespins: null,
    awaiting_deposit: false,
    min_deposit: null,
    expires_at: Math.floor(Date.now() / 1000) + 2 * 86_400 + 3600,
    created_at: Math.floor(Date.now() / 1000) - 3600,
    finished_at: null,
    can_activate: false,
    can_deactivate: false,
    can_remove: true,
    ...overrides,
  };
}

/** An offer as `campaigns.getoffers` answers it: the welcome deposit offer unless told otherwise. */
export function offer(overrides: Partial<Offer> = {}): Offer {
  return {
    id: 1,
    sysname: 'welcome',
    trigger: {
      action: 'deposit',
      params: { exclude_methods: [], min_deposit: '10.00', deposit_number: 1 },
      user_satisfies_params: true,
    },
    description: {
      title: 'Welcome bonus',
      text: '100% of your first deposit up to $500.',
      reward: '100% up to 500.00 USD + 50 free spins',
      terms: 'Wager the bonus 35 times within 30 days.',
      image: '/uploads/banner-welcome.svg',
    },
    promotions: ['welcome'],
    reward: { kind: 'deposit_match', percent: 100, max_amount: '500.00', amount: null, freespins: { game: 'gem-rush', count: 50 }, wager_multiplier: 35 },
    starts_at: null,
    ends_at: null,
    taken: false,
    bonus_id: null,
    ...overrides,
  };
}
