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

/**
 * Whether the player is using a frame of this page — a game's or a sportsbook provider's, whose
 * clicks and keys never reach this document: the focus is in one and the page is in view. A
 * player who plays on in a frame is not signed out (nor warned) for it; one who leaves the page
 * (another tab, the phone locked) or focuses the page again is timed as before. A player who
 * walks away from a visible page with a frame focused stays signed in: the frame cannot tell
 * (its own session ends at its token's end).
 */
function engagedInFrame(doc: Document = document): boolean {
  return doc.visibilityState === 'visible' && doc.hasFocus() && frameFocused(doc);
}

/** Whether the focus is in a frame of the page (its clicks and keys never reach the page). */
function frameFocused(doc: Document = document): boolean {
  return doc.activeElement instanceof HTMLIFrameElement;
}

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
  /**
   * A period ended with the player busy in a frame and started again: the server's session, whose
   * idle limit is the same time and counts the page's calls only, must hear from the page too.
   */
  onEngaged?: () => void;
}

/**
 * SPEC §4: signs a player out after `timeoutSeconds` without keydown, click, scroll or route
 * change, warning with a countdown during the last 20 %. Mount it only for a signed-in player.
 * Play inside a game's or provider's frame counts too: focus moving into a frame is activity, and
 * the period starts again while the focus stays there ({@link engagedInFrame}).
 */
export function InactivityWatcher({ timeoutSeconds, onTimeout, onEngaged }: InactivityWatcherProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const timer = useRef<ReturnType<typeof createInactivityTimer> | null>(null);
  const latestTimeout = useRef(onTimeout);
  const latestEngaged = useRef(onEngaged);
  useEffect(() => {
    latestTimeout.current = onTimeout;
    latestEngaged.current = onEngaged;
  }, [onTimeout, onEngaged]);
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
      engaged: () => {
        const busy = engagedInFrame();
        if (busy) latestEngaged.current?.();
        return busy;
      },
      onTimeout: () => {
        closeWarning();
        latestTimeout.current();
      },
    });
    timer.current = current;
    const onActivity = () => {
      current.activity();
    };
    // A click into a frame: the page loses the focus to it (its own clicks never reach us).
    const onBlur = () => {
      if (frameFocused()) current.activity();
    };
    for (const event of ACTIVITY_EVENTS) document.addEventListener(event, onActivity, { capture: true, passive: true });
    window.addEventListener('blur', onBlur);
    return () => {
      for (const event of ACTIVITY_EVENTS) document.removeEventListener(event, onActivity, { capture: true });
      window.removeEventListener('blur', onBlur);
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
