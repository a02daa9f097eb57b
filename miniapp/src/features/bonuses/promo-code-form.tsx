import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import screens from '@/components/screens.module.css';
import { paths } from '@/config/paths';
import { trackEvent } from '@/lib/analytics';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n, useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { formatMessage } from '@/lib/validation';
import { formatMoney } from '@/lib/format';
import type { Taken } from './api/take-offer';
import { useActivatePromoCode, useCheckPromoCode } from './api/promo-code';
import { isPromoCodeNotFound, promoCodeErrorText } from './errors';
import confirmStyles from '@/components/dialogs/confirm-dialog.module.css';
import styles from './bonuses.module.css';

function PromoCodeActivated({ taken, onDone }: { taken: Taken; onDone: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { offer, bonus } = taken;
  return (
    <div className={confirmStyles.confirm} data-testid="promo-code-activated">
      <h2 className={confirmStyles.confirmTitle}>{t('bonuses.promoActivated.title')}</h2>
      <p className={styles.reward}>{formatMessage(t('bonuses.promoActivated.text'), { title: offer.description.title, reward: offer.description.reward })}</p>
      {bonus.awaiting_deposit && (
        <p className={confirmStyles.confirmText}>
          {bonus.min_deposit
            ? formatMessage(t('bonuses.awaitingDeposit'), { amount: formatMoney(bonus.min_deposit, bonus.currency, locale) })
            : t('bonuses.awaitingAnyDeposit')}
        </p>
      )}
      <div className={styles.actions}>
        <Button data-autofocus onClick={onDone}>
          {t('bonuses.promoActivated.button')}
        </Button>
        {bonus.awaiting_deposit && (
          <Link className={buttonClassName('secondary')} to={localizePath(paths.cashierDeposit, locale)} onClick={onDone}>
            {t('bonuses.makeDeposit')}
          </Link>
        )}
      </div>
    </div>
  );
}

/** SPEC §2 "promo code activated" popup. */
export function openPromoCodeActivated(taken: Taken): number {
  return dialogs.open({
    name: 'promoCodeActivated',
    label: i18n.t('bonuses.promoActivated.title'),
    render: ({ close }) => <PromoCodeActivated taken={taken} onDone={() => close({ immediate: true })} />,
  });
}

/**
 * The promo-code field (SPEC §4): success clears it and opens the activated popup; failure
 * marks it invalid with the message of the server's first code (SPEC §5). "Check" shows what
 * the code gives without using it.
 */
export function PromoCodeForm() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const activate = useActivatePromoCode((taken) => {
    setCode('');
    openPromoCodeActivated(taken);
  });
  const check = useCheckPromoCode();
  const failed = activate.error ?? check.error;
  const onFailure = (error: unknown) => {
    if (isPromoCodeNotFound(error)) trackEvent('promo_code_not_found', { promo_code: code.trim() });
  };

  return (
    <form
      className={screens.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        check.reset();
        activate.mutate(code, { onError: onFailure });
      }}
    >
      <TextField
        label={t('bonuses.promo.label')}
        name="promo_code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        data-testid="promo-code-input"
        value={code}
        onValueChange={(value) => {
          setCode(value);
          activate.reset();
          check.reset();
        }}
        error={failed ? promoCodeErrorText(t, failed) : undefined}
        hint={check.data ? formatMessage(t('bonuses.promo.gives'), { reward: `${check.data.description.title} — ${check.data.description.reward}` }) : undefined}
      />
      <div className={styles.actions}>
        <Button type="submit" data-testid="promo-code-submit" disabled={activate.isPending}>
          {t('bonuses.promo.submit')}
        </Button>
        <Button
          variant="secondary"
          data-testid="promo-code-check"
          disabled={check.isPending || activate.isPending}
          onClick={() => {
            activate.reset();
            check.mutate(code, { onError: onFailure });
          }}
        >
          {t('bonuses.promo.check')}
        </Button>
      </div>
    </form>
  );
}
