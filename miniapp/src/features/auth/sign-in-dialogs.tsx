import { lazy, Suspense } from 'react';
import { Spinner } from '@/components/ui/spinner';
import type { AuthView } from '@/features/auth/components/auth-dialog';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { TRACKING_PARAMS, type TrackingParam } from '@/lib/entry-params';
import { i18n, loadAllMessages } from '@/lib/i18n';
import { readStored, STORAGE_KEYS } from '@/lib/storage';

// The forms load when a dialog first opens, not with the page, and with them the rest of the
// messages (their validation texts; see lib/i18n/message-parts.ts).
async function loadForms() {
  const [forms] = await Promise.all([import('./sign-in-content'), loadAllMessages()]);
  return forms;
}
const SignInContent = lazy(async () => ({ default: (await loadForms()).SignInContent }));
const SocialRegistrationContent = lazy(async () => ({ default: (await loadForms()).SocialRegistrationContent }));

function Loading() {
  return <Spinner label={i18n.t('app.loading')} />;
}

/** Tracking parameters remembered from the entry address (SPEC §2). */
export function readTracking(): Partial<Record<TrackingParam, string>> {
  try {
    const stored: unknown = JSON.parse(readStored(STORAGE_KEYS.tracking) ?? '{}');
    if (typeof stored !== 'object' || stored === null) return {};
    const tracking: Partial<Record<TrackingParam, string>> = {};
    for (const name of TRACKING_PARAMS) {
      const value = (stored as Record<string, unknown>)[name];
      if (typeof value === 'string') tracking[name] = value;
    }
    return tracking;
  } catch {
    return {};
  }
}

export function openSocialRegistration(): void {
  dialogs.open({
    name: 'socialRegistration',
    label: i18n.t('auth.socialRegistration.title'),
    // SPEC §4: not closable until the registration is completed.
    preventClose: true,
    render: ({ close }) => (
      <Suspense fallback={<Loading />}>
        <SocialRegistrationContent onDone={() => close({ immediate: true })} />
      </Suspense>
    ),
  });
}

export interface SignInDialogOptions {
  preventClose?: boolean;
  onClose?: () => void;
}

/** The authorization dialog, on its sign-in or its registration tab. */
export function openSignIn(view: AuthView, { preventClose = false, onClose }: SignInDialogOptions = {}): number {
  return dialogs.open({
    name: 'authorization',
    label: i18n.t(view === 'registration' ? 'auth.registration.title' : 'auth.login.title'),
    preventClose,
    ...(onClose ? { onClose } : {}),
    render: ({ close }) => (
      <Suspense fallback={<Loading />}>
        <SignInContent view={view} onSignedIn={() => close({ immediate: true })} />
      </Suspense>
    ),
  });
}
