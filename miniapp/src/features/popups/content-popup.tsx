import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import type { ContentPopup } from '@/features/content';
import { isExternalUrl } from '@/features/content';
import { dialogs, type CloseReason, type DialogControls } from '@/lib/dialogs/dialog-stack';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './content-popup.module.css';

function ContentPopupBody({ popup, preview, controls }: { popup: ContentPopup; preview: boolean; controls: DialogControls }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = useLocale();
  const act = () => {
    controls.close({ immediate: true });
    const url = popup.buttonUrl;
    if (url === null) return;
    if (isExternalUrl(url)) window.location.assign(url);
    else if (url.startsWith('/') && !url.startsWith('//')) void navigate(localizePath(url, locale));
  };
  return (
    <article className={styles.popup} data-testid="content-popup" data-sysname={popup.sysname} data-kind={popup.kind}>
      {preview && <p className={styles.preview}>{t('popups.preview')}</p>}
      {popup.image && <img className={styles.image} src={popup.image} alt="" />}
      <h2 className={styles.title}>{popup.title}</h2>
      {popup.text && <p className={styles.text}>{popup.text}</p>}
      <Button onClick={act} fullWidth data-autofocus>
        {popup.buttonTitle ?? t('popups.ok')}
      </Button>
    </article>
  );
}

export interface OpenPopupOptions {
  preview?: boolean;
  onClose?: (how: CloseReason) => void;
  /** Waits for the stack to empty (popups queued after sign-in) instead of opening on top. */
  queued?: boolean;
}

/** Opens a content-defined popup in the dialog stack, with its kind and size from the content. */
export function openContentPopup(popup: ContentPopup, { preview = false, onClose, queued = false }: OpenPopupOptions = {}): number {
  const request = {
    name: `popup:${popup.sysname}`,
    label: popup.title,
    kind: popup.kind,
    size: popup.size,
    ...(onClose ? { onClose } : {}),
    render: (controls: DialogControls) => <ContentPopupBody popup={popup} preview={preview} controls={controls} />,
  };
  return queued ? dialogs.queue(request) : dialogs.open(request);
}
