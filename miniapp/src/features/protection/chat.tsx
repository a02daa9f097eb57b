import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { createStore, useStore } from '@/lib/store';
import { getSupportSettings, protectionKeys, storeChatEvent, type SupportSettings } from './api';
import { CHAT_PROVIDERS } from './chat-providers';
import styles from './protection.module.css';

/** Whether the sandbox chat's panel is open (the support page's button opens it too). */
export const sandboxChatOpen = createStore(false);

export function useSupportSettings(uid: number) {
  return useQuery({ queryKey: protectionKeys.support(uid), queryFn: ({ signal }) => getSupportSettings({ signal }), staleTime: 5 * 60_000 });
}

interface Line {
  from: 'agent' | 'player';
  text: string;
}

/** The sandbox provider: a panel of our own; the player's messages are stored through the chat event call. */
function SandboxChat() {
  const { t } = useTranslation();
  const open = useStore(sandboxChatOpen);
  const [lines, setLines] = useState<Line[]>([]);
  const [draft, setDraft] = useState('');
  const reported = useRef(false);
  useEffect(() => {
    if (!open || reported.current) return;
    reported.current = true;
    void storeChatEvent('sandbox', 'opened').catch(() => undefined);
  }, [open]);
  if (!open) {
    return (
      <Button className={styles.chatButton} onClick={() => { sandboxChatOpen.set(true); }} data-testid="chat-open">
        {t('support.chatOpen')}
      </Button>
    );
  }
  return (
    <section className={styles.chatPanel} role="dialog" aria-label={t('support.chatTitle')} data-testid="chat-panel">
      <div className={styles.chatHeader}>
        <span>{t('support.chatTitle')}</span>
        <Button variant="secondary" onClick={() => { sandboxChatOpen.set(false); }} aria-label={t('support.chatClose')}>
          ×
        </Button>
      </div>
      <ul className={styles.chatLog} aria-live="polite">
        <li data-from="agent">{t('support.chatWelcome')}</li>
        {lines.map((line, index) => (
          <li key={index} data-from={line.from}>
            {line.text}
          </li>
        ))}
      </ul>
      <form
        className={styles.chatForm}
        onSubmit={(event) => {
          event.preventDefault();
          const text = draft.trim().slice(0, 1000);
          if (!text) return;
          setDraft('');
          setLines((all) => [...all, { from: 'player', text }]);
          void storeChatEvent('sandbox', 'message_sent', { text })
            .then(() => { setLines((all) => [...all, { from: 'agent', text: t('support.chatReceived') }]); })
            .catch(() => undefined);
        }}
      >
        <input aria-label={t('support.chatPlaceholder')} placeholder={t('support.chatPlaceholder')} value={draft} onChange={(e) => { setDraft(e.target.value); }} />
        <Button type="submit">{t('support.chatSend')}</Button>
      </form>
    </section>
  );
}

/** A third-party widget: loaded once per identity, reset on logout or another player (SPEC §4). */
function ProviderChat({ settings }: { settings: SupportSettings }) {
  const { provider, id, identity } = settings.chat;
  const key = `${provider}:${id ?? ''}:${identity?.user_id ?? 'guest'}`;
  useEffect(() => {
    const adapter = CHAT_PROVIDERS[provider];
    if (!adapter || !id) return;
    adapter.load(id, identity).catch((error: unknown) => {
      console.warn('the chat widget did not load', error);
    });
    return () => {
      adapter.reset();
    };
    // The key names the identity: a new one resets the widget and loads it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return null;
}

/** The live chat chosen by configuration, for the player in front of the site (`uid` 0: a guest). */
export function ChatWidget({ uid }: { uid: number }) {
  const settings = useSupportSettings(uid).data;
  if (!settings || settings.chat.provider === 'off') return null;
  if (settings.chat.provider === 'sandbox') return <SandboxChat />;
  return <ProviderChat settings={settings} />;
}
