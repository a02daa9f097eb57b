import type { TFunction } from 'i18next';
import type { BetSelection } from './api/bets';

// What the bet history shows in words: bets.get names markets and selections by their keys.

const PLAIN_MARKETS = ['1x2', 'moneyline', 'double_chance', 'btts', 'correct_score'] as const;

/** A market key of bets.get (1x2, totals:2.5, handicap:-0.25) in words. */
export function marketLabel(key: string, t: TFunction): string {
  const [kind = '', line = ''] = key.split(':');
  if (kind === 'totals' || kind === 'handicap') return t(`betting.markets.${kind}`, { line });
  const plain = PLAIN_MARKETS.find((market) => market === kind);
  return plain ? t(`betting.markets.${plain}`) : key;
}

/** A selection key of bets.get (home, draw, over, 2:1) in words, the teams from "Home v Away". */
export function pickLabel(selection: BetSelection, t: TFunction): string {
  const [home = '', away = ''] = selection.event.split(' v ');
  switch (selection.selection) {
    case 'home':
      return home;
    case 'away':
      return away;
    case 'draw':
    case 'over':
    case 'under':
    case 'yes':
    case 'no':
    case 'other':
      return t(`betting.picks.${selection.selection}`);
    case 'home_draw':
    case 'home_away':
    case 'draw_away':
      return t(`betting.picks.${selection.selection}`, { home, away });
    default:
      return selection.selection.replace(':', '-');
  }
}

/** A system's name for the player: "Yankee", "2 from 4". */
export function systemLabel(system: string, selections: number, t: TFunction): string {
  const k = /^from_(\d+)$/.exec(system)?.[1];
  if (k) return t('betting.slip.systems.from', { k, m: selections });
  return t(`betting.slip.systems.${system}` as 'betting.slip.systems.trixie', { defaultValue: system });
}

