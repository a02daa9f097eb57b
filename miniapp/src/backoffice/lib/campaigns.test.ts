import { describe, expect, it } from 'vitest';
import {
  BODY_KEYS,
  campaignBody,
  campaignValues,
  emptyCampaign,
  isPromoCode,
  missingKeys,
  validateCampaign,
  type CampaignValues,
} from './campaigns';

function campaign(overrides: Partial<CampaignValues> = {}): CampaignValues {
  return {
    ...emptyCampaign(),
    sysname: 'welcome-10',
    title_en: 'Welcome',
    title_fr: 'Bienvenue',
    text_en: 'Ten euros',
    text_fr: 'Dix euros',
    amounts: [{ currency: 'EUR', min_deposit: '', max_bonus: '10', max_bet: '5', max_conversion: '', freespin_bet: '' }],
    ...overrides,
  };
}

describe('campaign validation (the server’s CampaignInput::check)', () => {
  it('accepts a complete fixed campaign', () => {
    expect(validateCampaign(campaign())).toEqual({});
  });

  it('needs a slug sysname, the four texts and a known status, trigger and reward', () => {
    const errors = validateCampaign(
      campaign({ sysname: 'Welcome!', title_fr: ' ', text_en: '', status: 'ended', trigger: 'login', reward: 'cash' }),
    );
    expect(errors.sysname).toBe('bo.codes.INVALID');
    expect(errors.title_fr).toBe('bo.codes.REQUIRED');
    expect(errors.text_en).toBe('bo.codes.REQUIRED');
    expect(errors.status).toBe('bo.codes.UNSUPPORTED');
    expect(errors.trigger).toBe('bo.codes.UNSUPPORTED');
    expect(errors.reward).toBe('bo.codes.UNSUPPORTED');
    expect(validateCampaign(campaign({ sysname: '' })).sysname).toBe('bo.codes.REQUIRED');
    expect(validateCampaign(campaign({ sysname: 'a'.repeat(65) })).sysname).toBe('bo.codes.INVALID');
  });

  it('holds texts to 2000 characters as Rust counts them', () => {
    expect(validateCampaign(campaign({ terms_en: '€'.repeat(2000) })).terms_en).toBeUndefined();
    expect(validateCampaign(campaign({ terms_en: '😀'.repeat(2001) })).terms_en).toEqual({
      message: 'bo.validation.max_length',
      args: { max: 2000 },
    });
  });

  it('checks a deposit match: 1 to 1000 %, never at registration', () => {
    const errors = validateCampaign(campaign({ reward: 'deposit_match', trigger: 'registration', match_percent: 1001 }));
    expect(errors.match_percent).toEqual({ message: 'bo.validation.max_value', args: { max: 1000 } });
    expect(errors.trigger).toBe('bo.campaigns.match_needs_deposit');
    expect(validateCampaign(campaign({ reward: 'deposit_match', trigger: 'deposit', match_percent: 100 }))).toEqual({});
    expect(validateCampaign(campaign({ reward: 'deposit_match', trigger: 'deposit', match_percent: null })).match_percent).toBeDefined();
  });

  it('checks free spins: a count for a free-spins reward, a game and a bet per currency', () => {
    const errors = validateCampaign(campaign({ reward: 'freespins' }));
    expect(errors.freespin_count).toBe('bo.codes.REQUIRED');
    const spins = validateCampaign(campaign({ reward: 'freespins', freespin_count: 20 }));
    expect(spins.freespin_game).toBe('bo.codes.REQUIRED');
    expect(spins.amounts).toEqual([{ freespin_bet: { message: 'bo.validation.min_value', args: { min: 1 } } }]);
    expect(validateCampaign(campaign({ freespin_count: 1001, freespin_game: 'dice' })).freespin_count).toEqual({
      message: 'bo.validation.max_value',
      args: { max: 1000 },
    });
  });

  it('checks the numbers’ ranges: deposit number, wagering, days, takers', () => {
    const errors = validateCampaign(
      campaign({ trigger: 'deposit', deposit_number: 101, wager_multiplier: 201, claim_days: 0, wager_days: 366, max_takers: 0 }),
    );
    expect(errors.deposit_number).toBeDefined();
    expect(errors.wager_multiplier).toBeDefined();
    expect(errors.claim_days).toBeDefined();
    expect(errors.wager_days).toBeDefined();
    expect(errors.max_takers).toEqual({ message: 'bo.validation.min_value', args: { min: 1 } });
  });

  it('needs the end after the start, two-letter countries and slug lists', () => {
    const errors = validateCampaign(
      campaign({
        starts_at: '2026-12-01T10:00',
        ends_at: '2026-12-01T10:00',
        countries: 'fr, GBR',
        promotions: 'ok, Not Ok',
        exclude_methods: 'card',
      }),
    );
    expect(errors.ends_at).toBe('bo.campaigns.ends_before_start');
    expect(errors.countries).toBe('bo.campaigns.countries_invalid');
    expect(errors.promotions).toBe('bo.codes.INVALID');
    expect(errors.exclude_methods).toBeUndefined();
  });

  it('needs amounts: at least one currency, each supported and once, amounts readable, a bonus for money rewards', () => {
    expect(validateCampaign(campaign({ amounts: [] })).amounts).toBe('bo.campaigns.amounts_required');
    const errors = validateCampaign(
      campaign({
        amounts: [
          { currency: 'EUR', min_deposit: '10.555', max_bonus: '10', max_bet: '-1', max_conversion: '', freespin_bet: '' },
          { currency: 'EUR', min_deposit: '', max_bonus: '0', max_bet: '', max_conversion: '', freespin_bet: '' },
          { currency: 'XXX', min_deposit: '', max_bonus: '5', max_bet: '', max_conversion: '', freespin_bet: '' },
          { currency: 'JPY', min_deposit: '', max_bonus: '1.5', max_bet: '', max_conversion: '', freespin_bet: '' },
        ],
      }),
    );
    expect(errors.amounts).toEqual([
      { min_deposit: 'bo.codes.INVALID', max_bet: 'bo.codes.INVALID' },
      { currency: 'bo.codes.DUPLICATE', max_bonus: { message: 'bo.validation.min_value', args: { min: 1 } } },
      { currency: 'bo.codes.UNSUPPORTED' },
      { max_bonus: 'bo.codes.INVALID' },
    ]);
    // A free-spins reward needs no maximum bonus.
    expect(
      validateCampaign(
        campaign({
          reward: 'freespins',
          freespin_count: 10,
          freespin_game: 'dice',
          amounts: [{ currency: 'EUR', min_deposit: '', max_bonus: '', max_bet: '', max_conversion: '', freespin_bet: '0.20' }],
        }),
      ),
    ).toEqual({});
  });
});

describe('the campaign body', () => {
  it('sends minor units per currency, Unix seconds, lists as arrays, and only the server’s keys', () => {
    const body = campaignBody(
      campaign({
        sysname: ' spring ',
        trigger: 'deposit',
        deposit_number: 2,
        reward: 'freebet',
        games: 'dice, , crash',
        countries: 'fr,gb',
        starts_at: '2026-03-01T00:00:00.000Z',
        ends_at: new Date('2026-04-01T00:00:00.000Z'),
        max_takers: 100,
        amounts: [
          { currency: 'EUR', min_deposit: '20', max_bonus: '12,50', max_bet: '', max_conversion: '100', freespin_bet: '' },
          { currency: 'JPY', min_deposit: '3000', max_bonus: '1500', max_bet: '500', max_conversion: '', freespin_bet: '' },
        ],
      }),
    );
    expect(Object.keys(body).sort()).toEqual([...BODY_KEYS].sort());
    expect(body).toMatchObject({
      sysname: 'spring',
      status: 'draft',
      trigger: 'deposit',
      deposit_number: 2,
      reward: 'freebet',
      match_percent: 0,
      freespin_game: null,
      freespin_count: 0,
      games: ['dice', 'crash'],
      countries: ['FR', 'GB'],
      exclude_methods: [],
      image_url: null,
      starts_at: 1_772_323_200,
      ends_at: 1_775_001_600,
      claim_days: 7,
      wager_days: 30,
      max_takers: 100,
      amounts: [
        { currency: 'EUR', min_deposit: 2000, max_bonus: 1250, max_bet: 0, max_conversion: 10000, freespin_bet: 0 },
        { currency: 'JPY', min_deposit: 3000, max_bonus: 1500, max_bet: 500, max_conversion: null, freespin_bet: 0 },
      ],
    });
  });

  it('drops the deposit number of a campaign that is not triggered by a deposit', () => {
    expect(campaignBody(campaign({ trigger: 'manual', deposit_number: 3 })).deposit_number).toBeNull();
  });

  it('reads a campaign answer back into the form, and names what the answer lacks', () => {
    const answer = {
      id: 4,
      sysname: 'spring',
      status: 'active',
      trigger: 'promo_code',
      reward: 'fixed',
      title_en: 'Spring',
      takers: 3,
      max_takers: null,
      starts_at: 1_772_323_200,
      ends_at: null,
      amounts: [{ currency: 'EUR', min_deposit: 0, max_bonus: 1250, max_bet: 500, max_conversion: null, freespin_bet: 0 }],
      promo_codes: [],
    };
    const values = campaignValues(answer);
    expect(values).toMatchObject({
      sysname: 'spring',
      status: 'active',
      trigger: 'promo_code',
      title_en: 'Spring',
      title_fr: '',
      starts_at: '2026-03-01T00:00:00.000Z',
      ends_at: null,
      amounts: [{ currency: 'EUR', min_deposit: '0.00', max_bonus: '12.50', max_bet: '5.00', max_conversion: '', freespin_bet: '0.00' }],
    });
    expect(campaignBody(values).amounts).toEqual(answer.amounts);
    expect(values.version).toBeNull();
    expect('version' in campaignBody(values)).toBe(false);
    const read = campaignValues({ ...answer, version: 1_772_323_200_123 });
    expect(campaignBody(read).version).toBe(1_772_323_200_123);
    expect(missingKeys(answer)).toContain('title_fr');
    expect(missingKeys(answer)).not.toContain('amounts');
    expect(missingKeys({ ...campaignBody(values) })).toEqual([]);
  });

  it('knows a promo code as the server does', () => {
    expect(isPromoCode('SPRING-25')).toBe(true);
    expect(isPromoCode('spring_25')).toBe(true);
    expect(isPromoCode('spring 25')).toBe(false);
    expect(isPromoCode('x'.repeat(65))).toBe(false);
    expect(isPromoCode('')).toBe(false);
  });
});
