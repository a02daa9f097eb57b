import { useTranslation } from 'react-i18next';
import screens from '@/components/screens.module.css';
import { formatDate, formatTime } from '@/lib/format';
import { formatMessage } from '@/lib/validation';

/** A time-out or self-exclusion in force (`until`: unix seconds), as the server answers it. */
export interface ExclusionInForce {
  kind: 'time_out' | 'self_exclusion';
  until: number;
}

/** What a time-out or self-exclusion in force means, until when (the cashier and the responsible-gaming pages show it). */
export function ExclusionBanner({ exclusion }: { exclusion: ExclusionInForce }) {
  const { t } = useTranslation();
  const end = new Date(exclusion.until * 1000);
  return (
    <p className={screens.notice} role="status" data-testid="exclusion-banner">
      {formatMessage(t(`responsible.inForce.${exclusion.kind}`), { date: `${formatDate(end)} ${formatTime(end)}` })}
    </p>
  );
}
