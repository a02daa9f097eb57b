import { haptic } from '@/lib/telegram';
import type { Market, Selection, SportEvent } from './api/get-catalog';
import { toggleSelection, useSlip } from './slip-store';
import styles from './betting.module.css';

/** A price as a button: pressed while its selection is on the slip; disabled while its market takes no bets. */
export function OddsButton({ event, market, selection }: { event: SportEvent; market: Market; selection: Selection }) {
  const slip = useSlip();
  const open = (event.status === 'scheduled' || event.status === 'live') && market.state === 'active' && selection.odds !== null;
  const picked = slip.entries.some((entry) => entry.selectionId === selection.id);
  const odds = selection.odds;
  return (
    <button
      type="button"
      className={styles.odds}
      aria-pressed={picked}
      disabled={!open && !picked}
      data-testid="odds-button"
      data-selection={selection.id}
      onClick={() => {
        if (odds === null && !picked) return;
        haptic('selection');
        toggleSelection({
          selectionId: selection.id,
          eventId: event.id,
          event: `${event.home} v ${event.away}`,
          market: market.name,
          selection: selection.name,
          odds: odds ?? '',
        });
      }}
    >
      <span className={styles.oddsName}>{selection.name}</span>
      <span className={styles.oddsPrice}>{open ? (selection.odds_display ?? selection.odds) : '—'}</span>
    </button>
  );
}
