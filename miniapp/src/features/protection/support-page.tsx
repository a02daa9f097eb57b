import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import screens from '@/components/screens.module.css';
import { fieldError, formError, isAuthenticated, useAccountInfo } from '@/features/account';
import { apiGet } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { formatMessage } from '@/lib/validation';
import { sendFeedback } from './api';
import { sandboxChatOpen, useSupportSettings } from './chat';
import styles from './protection.module.css';

interface Faq {
  question: string;
  answer: string;
}

/** The support page's questions: the content's FAQ of `/support` (its SEO entry), placeholders filled by the server. */
function useSupportFaq() {
  const locale = useLocale();
  return useQuery({
    queryKey: ['content', 'support-faq', locale],
    queryFn: ({ signal }) =>
      apiGet<{ schemaFaq?: Faq[] }>('metadata.get', { path: localizePath('/support', locale) }, { signal }).then((seo) => seo.schemaFaq ?? []),
    staleTime: 5 * 60_000,
  });
}

function FeedbackForm({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const send = useMutation({
    mutationFn: () => sendFeedback({ email: email.trim(), name: name.trim(), message: message.trim() }),
    onSuccess: () => {
      setMessage('');
    },
  });
  return (
    <section className={screens.card} aria-labelledby="feedback-title">
      <h2 id="feedback-title" className={screens.cardTitle}>
        {t('support.formTitle')}
      </h2>
      {send.isSuccess ? (
        <p className={screens.notice} role="status" data-testid="feedback-sent">
          {t('support.sent')}
        </p>
      ) : (
        <form
          className={screens.form}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            send.mutate();
          }}
        >
          {!signedIn && (
            <TextField label={t('support.email')} name="email" type="email" value={email} onValueChange={setEmail} error={fieldError(t, send.error, 'email')} />
          )}
          <TextField label={t('support.name')} name="name" value={name} onValueChange={setName} error={fieldError(t, send.error, 'name')} />
          <label className={screens.form}>
            <span>{t('support.message')}</span>
            <textarea name="message" rows={5} maxLength={2000} value={message} onChange={(e) => { setMessage(e.target.value); }} aria-invalid={fieldError(t, send.error, 'message') ? true : undefined} />
            {fieldError(t, send.error, 'message') && <span className={screens.alert}>{fieldError(t, send.error, 'message')}</span>}
          </label>
          {formError(t, send.error, ['email', 'name', 'message']) && <p className={screens.alert}>{formError(t, send.error, ['email', 'name', 'message'])}</p>}
          <div>
            <Button type="submit" disabled={send.isPending}>
              {t('support.send')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

/** /support: the content's FAQ, a message to support, the live chat and the Telegram bot. */
export function SupportPage() {
  const { t } = useTranslation();
  const { data: account } = useAccountInfo();
  const route = useRouteHandle()?.name;
  const signedIn = isAuthenticated(account);
  const faq = useSupportFaq().data ?? [];
  const settings = useSupportSettings(account?.uid ?? 0).data;
  return (
    <div className={screens.page} data-testid="support" data-route={route}>
      <h1 className={screens.title}>{t('pages.support')}</h1>
      <p className={screens.muted}>{t('support.intro')}</p>
      {faq.length > 0 && (
        <section className={screens.card} aria-labelledby="faq-title">
          <h2 id="faq-title" className={screens.cardTitle}>
            {t('support.faq')}
          </h2>
          <div className={styles.faq}>
            {faq.map((item) => (
              <details key={item.question}>
                <summary>{item.question}</summary>
                <p>{item.answer}</p>
              </details>
            ))}
          </div>
        </section>
      )}
      <FeedbackForm signedIn={signedIn} />
      <section className={screens.card}>
        {settings?.chat.provider === 'sandbox' && (
          <Button variant="secondary" onClick={() => { sandboxChatOpen.set(true); }}>
            {t('support.chatOpen')}
          </Button>
        )}
        {settings?.telegram_bot && (
          <p>
            {formatMessage(t('support.telegram'), { bot: '' })}
            <a href={`https://t.me/${settings.telegram_bot}`} target="_blank" rel="noreferrer">
              @{settings.telegram_bot}
            </a>
          </p>
        )}
      </section>
    </div>
  );
}
