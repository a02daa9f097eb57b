import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { accountKeys } from '@/features/account/api/get-account-info';
import { getProfileInfo, type Contact } from '@/features/account/api/get-profile-info';
import screens from '@/components/screens.module.css';
import { apiPost } from '@/lib/api/client';
import { showToast } from '@/lib/toasts/toast-store';
import { ProfileFrame } from './profile-frame';
import { expectOne } from './use-api-form';

function Subscription({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: async (on: boolean) =>
      expectOne(
        await apiPost('account.changeSubscription', { contact: contact.contact, phone_country_code: contact.phone_country_code ?? '', subscription: on }, { textFields: ['contact', 'phone_country_code'] }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.all }),
    onError: () => showToast({ type: 'error', message: t('profile.saveFailed') }),
  });
  const on = change.isPending ? change.variables : contact.is_subscribed;
  return (
    <li className={screens.item}>
      <label className={screens.row}>
        <input type="checkbox" checked={on} disabled={change.isPending} onChange={(event) => { change.mutate(event.target.checked); }} />
        {t(`profile.subscribe.${contact.type}`)}
      </label>
      <span className={screens.muted}>{contact.contact}</span>
    </li>
  );
}

/** /profile/notification: news and offers per contact (subscriptions). */
export function NotificationPage() {
  const { t } = useTranslation();
  const info = useQuery({ queryKey: [...accountKeys.profile(), 'settings'], queryFn: ({ signal }) => getProfileInfo({ signal }) });
  return (
    <ProfileFrame tab="profileNotification">
      <section className={screens.card} aria-labelledby="subscriptions">
        <h2 id="subscriptions" className={screens.cardTitle}>
          {t('profile.subscriptions')}
        </h2>
        {info.isPending ? (
          <Spinner label={t('app.loading')} />
        ) : (
          <ul className={screens.list}>
            {(info.data?.contacts ?? []).map((contact) => (
              <Subscription key={`${contact.type}:${contact.contact}`} contact={contact} />
            ))}
          </ul>
        )}
      </section>
    </ProfileFrame>
  );
}
