// What runs for a signed-in player only (issue 23): its own chunk, loaded by LocaleRoot once the
// account says the visitor is signed in, so a guest's first visit neither downloads nor evaluates
// it.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { accountInfoQueryOptions } from '@/features/account';
import { InactivityWatcher } from '@/features/auth/components/inactivity-watcher';
import { useSession } from '@/features/auth/use-session';
import { LoyaltyNotices } from '@/features/loyalty/notices';
import { useGeneralInfo } from '@/features/metadata/api/get-general-info';
import { RealityCheckWatcher } from '@/features/protection/reality-check';
import { i18n } from '@/lib/i18n';
import { showToast } from '@/lib/toasts/toast-store';

/** SPEC §4 forced logout after time_to_force_logout without activity. */
function Inactivity() {
  const { data: info } = useGeneralInfo();
  const { signOut } = useSession();
  const queryClient = useQueryClient();
  if (!info) return null;
  return (
    <InactivityWatcher
      timeoutSeconds={info.time_to_force_logout}
      // Busy in a game's or provider's frame (a game page refreshes nothing by itself): the
      // account is read again, which keeps the server's session alive for the same period.
      onEngaged={() => {
        queryClient.query({ ...accountInfoQueryOptions(), staleTime: 0 }).catch((error: unknown) => {
          console.warn('account not read while playing in a frame', error);
        });
      }}
      onTimeout={() => {
        void signOut('inactivity').then(() => {
          showToast({ type: 'info', message: i18n.t('inactivity.loggedOut') });
        });
      }}
    />
  );
}

/** The reality check at the interval the player chose; "stop" signs out. */
function RealityCheck() {
  const { signOut } = useSession();
  const stop = useCallback(() => {
    void signOut('user');
  }, [signOut]);
  return <RealityCheckWatcher onStop={stop} />;
}

/** The signed-in player's watchers: inactivity, loyalty notices and the reality check. */
export default function SignedInWatchers() {
  return (
    <>
      <Inactivity />
      <LoyaltyNotices />
      <RealityCheck />
    </>
  );
}
