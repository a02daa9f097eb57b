import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrackingParam } from '@/lib/entry-params';
import type { AccountInfo } from '@/features/account';
import styles from './auth-forms.module.css';
import { LoginForm, type TwoFactorChallenge } from './login-form';
import { RegistrationForm } from './registration-form';
import { RestoreForm } from './restore-form';
import { SocialButtons } from './social-buttons';
import { TwoFactorForm } from './two-factor-form';

export type AuthView = 'authorization' | 'registration';

export type SignInMethod = 'login' | 'registration' | 'restore';

export interface AuthPanelProps {
  initialView: AuthView;
  currencies: readonly string[];
  defaultCurrency: string;
  promoCode: string | null;
  tracking: Partial<Record<TrackingParam, string>>;
  onSignedIn: (account: AccountInfo, method: SignInMethod) => void;
}

type Step = { view: AuthView } | { view: 'twoFactor'; challenge: TwoFactorChallenge } | { view: 'restore' };

/** Sign in and sign up, with the two-factor and restore steps; shown in a dialog or on /forms pages. */
export function AuthPanel({ initialView, currencies, defaultCurrency, promoCode, tracking, onSignedIn }: AuthPanelProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ view: initialView });

  const backToLogin = () => {
    setStep({ view: 'authorization' });
  };

  if (step.view === 'twoFactor') {
    return (
      <section className={styles.panel}>
        <h2 className={styles.title}>{t('auth.twoFactor.title')}</h2>
        <TwoFactorForm
          challenge={step.challenge}
          onSignedIn={(account) => {
            onSignedIn(account, 'login');
          }}
          onBack={backToLogin}
        />
      </section>
    );
  }

  if (step.view === 'restore') {
    return (
      <section className={styles.panel}>
        <h2 className={styles.title}>{t('auth.restore.title')}</h2>
        <RestoreForm
          onSignedIn={(account) => {
            onSignedIn(account, 'restore');
          }}
          onBack={backToLogin}
        />
      </section>
    );
  }

  return (
    <section className={styles.panel}>
      <div className={styles.brand} aria-hidden="true">
        ♠
      </div>
      <div className={styles.tabs} role="tablist" aria-label={t('auth.tabsLabel')}>
        {(['authorization', 'registration'] as const).map((view) => (
          <button
            key={view}
            type="button"
            role="tab"
            id={`auth-tab-${view}`}
            aria-selected={step.view === view}
            aria-controls={`auth-tabpanel-${view}`}
            className={styles.tab}
            onClick={() => {
              setStep({ view });
            }}
          >
            {t(view === 'authorization' ? 'auth.login.title' : 'auth.registration.title')}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`auth-tabpanel-${step.view}`} aria-labelledby={`auth-tab-${step.view}`}>
        {step.view === 'authorization' ? (
          <LoginForm
            onSignedIn={(account) => {
              onSignedIn(account, 'login');
            }}
            onTwoFactor={(challenge) => {
              setStep({ view: 'twoFactor', challenge });
            }}
            onForgotPassword={() => {
              setStep({ view: 'restore' });
            }}
          />
        ) : (
          <RegistrationForm
            currencies={currencies}
            defaultCurrency={defaultCurrency}
            promoCode={promoCode}
            tracking={tracking}
            onSignedIn={(account) => {
              onSignedIn(account, 'registration');
            }}
          />
        )}
        <SocialButtons
          typeAuth={step.view}
          onSignedIn={(account) => {
            onSignedIn(account, step.view === 'registration' ? 'registration' : 'login');
          }}
        />
      </div>
    </section>
  );
}
