import type { TFunction } from 'i18next';
import type { Locale } from '@/config/locales';
import { formatAmount, formatMoney } from '@/lib/format';
import { currencyDecimals, minorToAmount } from '@/lib/minor-units';
import type { Prize, Tournament } from './api/get-tournaments';

/**
 * A score (or a gap between scores) as the tournament's scoring counts it: stake and win are
 * minor units of its first currency, multiplier hundredths (`×12.34`), points whole points.
 */
export function formatScore(score: number, tournament: Pick<Tournament, 'scoring' | 'currencies'>, t: TFunction, locale: Locale): string {
  switch (tournament.scoring) {
    case 'stake':
    case 'win': {
      const currency = tournament.currencies[0] ?? 'USD';
      return formatMoney(minorToAmount(score, currencyDecimals(currency)), currency, locale);
    }
    case 'multiplier':
      return `×${formatAmount(minorToAmount(score, 2), locale)}`;
    case 'points':
      return t('tournaments.points', { count: score, points: new Intl.NumberFormat(locale).format(score) });
  }
}

/** `1` or `4–10`. */
export function rankText(prize: Pick<Prize, 'rank_from' | 'rank_to'>, t: TFunction): string {
  return prize.rank_from === prize.rank_to
    ? String(prize.rank_from)
    : t('tournaments.ranks', { from: prize.rank_from, to: prize.rank_to });
}

/** What a prize gives, in words. */
export function prizeText(prize: Prize, t: TFunction, locale: Locale): string {
  const money = prize.amount ? formatMoney(prize.amount.amount, prize.amount.currency, locale) : '';
  switch (prize.kind) {
    case 'money':
      return money;
    case 'bonus':
      return t('tournaments.prizeKind.bonus', { amount: money });
    case 'freespins':
      return prize.freespins
        ? t('tournaments.prizeKind.freespins', {
            count: prize.freespins.count,
            game: prize.freespins.game,
            bet: formatMoney(prize.freespins.bet.amount, prize.freespins.bet.currency, locale),
          })
        : '';
    case 'points':
      return t('tournaments.prizeKind.points', { points: new Intl.NumberFormat(locale).format(prize.points ?? 0) });
  }
}
