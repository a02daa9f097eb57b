import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { paths } from '@/config/paths';
import { accountInfoQueryOptions, isAuthenticated } from '@/features/account';
import { openSignIn } from '@/features/auth';
import { useGeneralInfo } from '@/features/metadata';
import { formatDate, formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { showToast } from '@/lib/toasts/toast-store';
import { formatMessage } from '@/lib/validation';
import { findOffer, useOffers, type Offer } from './api/get-offers';
import { useTakeOffer } from './api/take-offer';
import { bonusErrorText } from './errors';
import styles from './bonuses.module.css';

/** The offers a player takes with a button; promo-code offers come with their code. */
const TAKEABLE = new Set<Offer['trigger']['action']>(['registration', 'deposit']);

export type OfferButton = 'loading' | 'register' | 'take' | 'taken' | 'promoCode' | 'notEligible';

/** What the offer's button is for the visitor: `signedIn` is undefined while the account is unknown. */
export function offerButton(offer: Offer, signedIn: boolean | undefined): OfferButton {
  if (signedIn === undefined) return 'loading';
  if (!signedIn) return 'register';
  if (offer.taken) return 'taken';
  if (!TAKEABLE.has(offer.trigger.action)) return 'promoCode';
  return offer.trigger.user_satisfies_params ? 'take' : 'notEligible';
}

function OfferAction({ offer }: { offer: Offer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const account = useQuery(accountInfoQueryOptions());
  const take = useTakeOffer(() => showToast({ type: 'success', message: t('offers.takenToast') }));
  const myBonuses = (
    <Link to={localizePath('/profile/bonuses', locale)} className={buttonClassName('secondary')}>
      {t('offers.myBonuses')}
    </Link>
  );
  switch (offerButton(offer, account.data ? isAuthenticated(account.data) : undefined)) {
    case 'loading':
      return null;
    case 'register':
      return (
        <Button data-testid="offer-register" onClick={() => openSignIn('registration')}>
          {t('offers.register')}
        </Button>
      );
    case 'taken':
      return (
        <div className={styles.actions}>
          <span className={screens.status} data-status="taken" data-testid="offer-taken">
            {t('offers.taken')}
          </span>
          {myBonuses}
        </div>
      );
    case 'take':
      return (
        <Button
          data-testid="offer-take"
          disabled={take.isPending}
          onClick={() => {
            take.mutate(offer.id, { onError: (error) => showToast({ type: 'error', message: bonusErrorText(t, error, 'offer_id') }) });
          }}
        >
          {t('offers.take')}
        </Button>
      );
    case 'promoCode':
      return <p className={screens.muted}>{t('offers.byPromoCode')}</p>;
    case 'notEligible':
      return (
        <p className={screens.muted} data-testid="offer-not-eligible">
          {t('offers.notEligible')}
        </p>
      );
  }
}

/** Offer amounts are in the player's currency, or the site's default one for a guest. */
function useOfferCurrency(): string | undefined {
  const account = useQuery(accountInfoQueryOptions());
  const general = useGeneralInfo();
  return account.data?.currency ?? general.data?.default_currency;
}

/** Minimum deposit, wagering and end date, in a line (only running offers are listed). */
function OfferFacts({ offer }: { offer: Offer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const currency = useOfferCurrency();
  const { min_deposit: minDeposit } = offer.trigger.params;
  const facts = [
    minDeposit && currency && formatMessage(t('offers.minDeposit'), { amount: formatMoney(minDeposit, currency, locale) }),
    offer.reward.wager_multiplier > 0 && formatMessage(t('offers.wager'), { times: offer.reward.wager_multiplier }),
    offer.ends_at !== null && formatMessage(t('offers.until'), { date: formatDate(offer.ends_at) }),
  ].filter((fact): fact is string => typeof fact === 'string' && fact !== '');
  if (facts.length === 0) return null;
  return (
    <ul className={styles.facts}>
      {facts.map((fact) => (
        <li key={fact}>{fact}</li>
      ))}
    </ul>
  );
}

/** An offer in the offers list: its words, its terms folded, and its button. */
export function OfferCard({ offer }: { offer: Offer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={screens.card} data-testid="offer-card" data-offer-id={offer.id} data-sysname={offer.sysname}>
      <h2 className={screens.cardTitle}>
        <Link to={localizePath(`${paths.offers}/${String(offer.id)}`, locale)}>{offer.description.title}</Link>
      </h2>
      {offer.description.reward && <p className={styles.reward}>{offer.description.reward}</p>}
      {offer.description.text && <p className={styles.text}>{offer.description.text}</p>}
      <OfferFacts offer={offer} />
      {offer.description.terms && (
        <details>
          <summary>{t('offers.terms')}</summary>
          <p className={styles.text}>{offer.description.terms}</p>
        </details>
      )}
      <OfferAction offer={offer} />
    </li>
  );
}

/** A page of the offers' section: its title, and the route name the tests and the SEO read. */
function OffersFrame({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const route = useRouteHandle()?.name;
  return (
    <div className={screens.page} data-testid={testId} data-route={route}>
      <h1 className={screens.title}>{title}</h1>
      {children}
    </div>
  );
}

/** The running offers, loaded; `render` shows them. */
function WithOffers({ empty, render }: { empty: string; render: (offers: Offer[]) => ReactNode }) {
  const { t } = useTranslation();
  const offers = useOffers();
  if (offers.isPending) return <Spinner label={t('app.loading')} />;
  if (offers.isError) return <p className={screens.alert}>{t('offers.loadFailed')}</p>;
  if (offers.data.items.length === 0) return <p className={screens.notice}>{empty}</p>;
  return render(offers.data.items);
}

/** /offers: every running offer, to take. */
export function OffersPage() {
  const { t } = useTranslation();
  return (
    <OffersFrame title={t('pages.offers')} testId="offers-page">
      <WithOffers
        empty={t('offers.empty')}
        render={(offers) => (
          <ul className={`${screens.list} ${styles.offers}`} data-testid="offers-list">
            {offers.map((offer) => (
              <OfferCard key={offer.id} offer={offer} />
            ))}
          </ul>
        )}
      />
    </OffersFrame>
  );
}

/** /promotions: the running offers told as promotions — picture, story and a way to the details. */
export function PromotionsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <OffersFrame title={t('pages.promotions')} testId="promotions-page">
      <WithOffers
        empty={t('offers.promotionsEmpty')}
        render={(offers) => (
          <ul className={`${screens.list} ${styles.offers}`} data-testid="promotions-list">
            {offers.map((offer) => (
              <li key={offer.id} className={screens.card} data-testid="promotion-card" data-offer-id={offer.id} data-sysname={offer.sysname}>
                {offer.description.image && <img className={styles.image} src={offer.description.image} alt="" />}
                <h2 className={screens.cardTitle}>{offer.description.title}</h2>
                {offer.description.text && <p className={styles.text}>{offer.description.text}</p>}
                <OfferFacts offer={offer} />
                <Link className={buttonClassName('secondary')} to={localizePath(`${paths.promotions}/${offer.sysname}`, locale)}>
                  {t('offers.more')}
                </Link>
              </li>
            ))}
          </ul>
        )}
      />
    </OffersFrame>
  );
}

/** /offers/{id} and /promotions/{id}: one offer in full (by id, sysname or promotion slug). */
function OfferDetail({ section }: { section: 'offers' | 'promotions' }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { id = '' } = useParams();
  const offers = useOffers();
  const offer = offers.data ? findOffer(offers.data.items, id) : undefined;
  const back = (
    <Link to={localizePath(paths[section], locale)}>{t(section === 'offers' ? 'offers.all' : 'offers.allPromotions')}</Link>
  );
  return (
    <OffersFrame title={offer?.description.title ?? t(`pages.${section}`)} testId={section === 'offers' ? 'offer-page' : 'promotion-page'}>
      {offers.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : offers.isError ? (
        <p className={screens.alert}>{t('offers.loadFailed')}</p>
      ) : !offer ? (
        <p className={screens.notice} data-testid="offer-not-found">
          {t('offers.notFound')} {back}
        </p>
      ) : (
        <article className={screens.card} data-testid="offer-card" data-offer-id={offer.id} data-sysname={offer.sysname}>
          {offer.description.image && <img className={styles.image} src={offer.description.image} alt="" />}
          {offer.description.reward && <p className={styles.reward}>{offer.description.reward}</p>}
          {offer.description.text && <p className={styles.text}>{offer.description.text}</p>}
          <OfferFacts offer={offer} />
          {offer.description.terms && (
            <section aria-labelledby="offer-terms">
              <h2 id="offer-terms" className={screens.cardTitle}>
                {t('offers.terms')}
              </h2>
              <p className={styles.text}>{offer.description.terms}</p>
            </section>
          )}
          <OfferAction offer={offer} />
          {back}
        </article>
      )}
    </OffersFrame>
  );
}

export const OfferPage = () => <OfferDetail section="offers" />;
export const PromotionPage = () => <OfferDetail section="promotions" />;
