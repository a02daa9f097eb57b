// The character change and its confirmation (SPEC §2 dialogs). Test ids: character-change,
// character-dialog, character-option, character-confirm-dialog, character-confirm-yes,
// character-confirm-no, profile-loyalty-character.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { ApiError } from '@/lib/api/client';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n } from '@/lib/i18n';
import { showToast } from '@/lib/toasts/toast-store';
import { getCharacters, loyaltyKeys, setCharacter, type CharacterItem } from './api/loyalty';
import styles from './loyalty.module.css';

function ConfirmCharacter({ character, close }: { character: CharacterItem; close: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sent = useRef(false);
  const change = useMutation({
    mutationFn: () => setCharacter(character.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.all });
      close();
      showToast({ type: 'success', message: t('loyalty.character.changed', { title: character.title }) });
    },
    onError: (error) => {
      close();
      const message = error instanceof ApiError && error.message ? error.message : t('loyalty.failed');
      showToast({ type: 'error', message });
    },
  });
  return (
    <div className={styles.dialog} data-testid="character-confirm-dialog">
      <h2>{t('loyalty.character.confirmTitle')}</h2>
      <p>{t('loyalty.character.confirmText', { title: character.title })}</p>
      <div className={styles.actions}>
        <Button data-testid="character-confirm-yes" disabled={change.isPending} onClick={() => {
            if (sent.current) return;
            sent.current = true;
            change.mutate();
          }}>
          {t('loyalty.character.confirmYes')}
        </Button>
        <Button variant="secondary" data-testid="character-confirm-no" data-autofocus onClick={close}>
          {t('loyalty.character.confirmNo')}
        </Button>
      </div>
    </div>
  );
}

function openConfirm(character: CharacterItem): void {
  dialogs.open({
    name: 'loyaltyCharacterConfirm',
    label: i18n.t('loyalty.character.confirmTitle'),
    kind: 'confirm',
    render: ({ close }) => <ConfirmCharacter character={character} close={() => close({ immediate: true })} />,
  });
}

/** The list of characters to choose from. */
export function CharacterChoice({ close }: { close: () => void }) {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: loyaltyKeys.characters(), queryFn: ({ signal }) => getCharacters({ signal }) });
  return (
    <div className={styles.dialog} data-testid="character-dialog">
      <h2>{t('loyalty.character.chooseTitle')}</h2>
      {list.isPending && <Spinner label={t('app.loading')} />}
      {list.isError && <p className={screens.alert}>{t('loyalty.failed')}</p>}
      {list.data && (
        <ul className={styles.options}>
          {list.data.items.map((c) => (
            <li key={c.id}>
              <Button
                variant={c.selected ? 'primary' : 'secondary'}
                className={styles.option}
                data-testid="character-option"
                data-sysname={c.sysname}
                disabled={!c.available || c.selected}
                onClick={() => {
                  close();
                  openConfirm(c);
                }}
              >
                <strong>{c.title}</strong> {c.description}
                {!c.available && ` — ${t('loyalty.character.needsLevel', { level: c.min_level })}`}
                {c.selected && ` — ${t('loyalty.character.current')}`}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <Button variant="secondary" data-autofocus onClick={close}>
          {t('loyalty.character.cancel')}
        </Button>
      </div>
    </div>
  );
}

export function openCharacterChange(): void {
  dialogs.open({
    name: 'loyaltyCharacterChange',
    label: i18n.t('loyalty.character.chooseTitle'),
    render: ({ close }) => <CharacterChoice close={() => close({ immediate: true })} />,
  });
}
