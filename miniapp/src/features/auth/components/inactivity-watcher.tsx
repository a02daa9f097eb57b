import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { formatMessage } from '@/lib/validation';
import { createInactivityTimer } from '../inactivity';
import styles from './hints.module.css';
import { useSecondsUntil } from './use-countdown';

const ACTIVITY_EVENTS = ['keydown', 'click', 'scroll'] as const;

function InactivityWarning({ deadline, onStay }: { deadline: number; onStay: () => void }) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(deadline);
  return (
    <div className={styles.dialog}>
      <h2 className={styles.dialogTitle}>{t('inactivity.title')}</h2>
      <p role="timer" className={styles.countdown} data-testid="inactivity-countdown">
        {formatMessage(t('inactivity.countdown'), { seconds })}
      </p>
      <Button fullWidth onClick={onStay} data-autofocus>
        {t('inactivity.stay')}
      </Button>
    </div>
  );
}

export interface InactivityWatcherProps {
  /** time_to_force_logout, in seconds. */
  timeoutSeconds: number;
  onTimeout: () => void;
}

/**
 * SPEC §4: signs a player out after `timeoutSeconds` without keydown, click, scroll or route
 * change, warning with a countdown during the last 20 %. Mount it only for a signed-in player.
 */
export function InactivityWatcher({ timeoutSeconds, onTimeout }: InactivityWatcherProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const timer = useRef<ReturnType<typeof createInactivityTimer> | null>(null);
  const latestTimeout = useRef(onTimeout);
  useEffect(() => {
    latestTimeout.current = onTimeout;
  }, [onTimeout]);
  const label = t('inactivity.title');

  useEffect(() => {
    if (timeoutSeconds <= 0) return;
    let warningId: number | null = null;
    const closeWarning = () => {
      if (warningId !== null) dialogs.close(warningId, { immediate: true });
      warningId = null;
    };
    const current = createInactivityTimer({
      timeoutMs: timeoutSeconds * 1000,
      onWarn: (deadline) => {
        warningId = dialogs.open({
          name: 'inactivity',
          label,
          kind: 'confirm',
          preventClose: true,
          // Pressing the button is itself a click, which resumes the period.
          render: () => <InactivityWarning deadline={deadline} onStay={closeWarning} />,
        });
      },
      onResume: closeWarning,
      onTimeout: () => {
        closeWarning();
        latestTimeout.current();
      },
    });
    timer.current = current;
    const onActivity = () => {
      current.activity();
    };
    for (const event of ACTIVITY_EVENTS) document.addEventListener(event, onActivity, { capture: true, passive: true });
    return () => {
      for (const event of ACTIVITY_EVENTS) document.removeEventListener(event, onActivity, { capture: true });
      current.stop();
      closeWarning();
      timer.current = null;
    };
  }, [label, timeoutSeconds]);

  useEffect(() => {
    timer.current?.activity();
  }, [pathname]);

  return null;
}
