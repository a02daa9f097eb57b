import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { minorToAmount } from '@/lib/minor-units';
import type { Pool } from './api/get-jackpots';
import styles from './jackpots.module.css';

const TICK_MS = 800;

/**
 * The amount to show on the way to `target` (minor units): it counts up to a new, higher value
 * over a moment and jumps straight down to a lower one (a drop). It is never above `target`.
 */
export function useTicking(target: number): number {
  const [shown, setShown] = useState(target);
  const from = useRef(target);
  useEffect(() => {
    const start = from.current;
    const began = performance.now();
    let frame = 0;
    const step = (now: number) => {
      const progress = target > start ? Math.min(1, (now - began) / TICK_MS) : 1;
      const value = progress >= 1 ? target : Math.floor(start + (target - start) * progress);
      from.current = value;
      setShown(value);
      if (value !== target) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [target]);
  return Math.min(shown, target);
}

/** Digits after the point in the server's decimal amount (`"12.50"` → 2). */
function decimalsOf(amount: string): number {
  return amount.split('.')[1]?.length ?? 0;
}

/** A pool's amount following the server: `data-minor` is the value on screen, in minor units. */
export function JackpotAmount({ pool }: { pool: Pick<Pool, 'amount' | 'amount_minor' | 'currency'> }) {
  const locale = useLocale();
  const shown = useTicking(pool.amount_minor);
  // The server's own text once there; on the way, the same number of decimals.
  const amount = shown === pool.amount_minor ? pool.amount.amount : minorToAmount(shown, decimalsOf(pool.amount.amount));
  return (
    <span className={styles.amount} data-testid="jackpot-amount" data-minor={shown}>
      {formatMoney(amount, pool.currency, locale)}
    </span>
  );
}
