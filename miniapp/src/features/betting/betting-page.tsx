import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { paths } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { useEvent, useEvents, useSports, type EventsTab, type SportEvent } from './api/get-catalog';
import { useLiveOdds } from './api/live-odds';
import { BetSlip } from './bet-slip';
import { EventCard, EventState } from './event-card';
import { ODDS_FORMATS, type OddsFormat } from './odds';
import { OddsButton } from './odds-button';
import { BookSwitch, ProviderBookPage } from './provider-book';
import { applyPrices, pricesOf, setOddsFormat, useSlip } from './slip-store';
import styles from './betting.module.css';

const TABS: readonly EventsTab[] = ['live', 'upcoming'];

/** The slip follows every price the open page receives (moves, suspensions), so it never shows a stale one. */
function useSlipFollows(events: readonly SportEvent[] | undefined): void {
  useEffect(() => {
    if (events) applyPrices(pricesOf(events));
  }, [events]);
}

function OddsFormatSwitch() {
  const { t } = useTranslation();
  const { format } = useSlip();
  return (
    <div className={screens.tabs} role="group" aria-label={t('betting.oddsFormat')} data-testid="odds-format">
      {ODDS_FORMATS.map((value: OddsFormat) => (
        <button key={value} type="button" className={screens.tab} aria-pressed={format === value} onClick={() => { setOddsFormat(value); }}>
          {t(`betting.formats.${value}`)}
        </button>
      ))}
    </div>
  );
}

/**
 * The betting pages' frame: the title, the odds format switch, the page, and the slip beside it.
 * The events the page shows and those on the slip are followed live (one stream).
 */
function BettingFrame({ testId, eventIds, children }: { testId: string; eventIds: readonly number[]; children: ReactNode }) {
  const { t } = useTranslation();
  const route = useRouteHandle()?.name;
  const { entries } = useSlip();
  useLiveOdds([...eventIds, ...entries.map((entry) => entry.eventId)]);
  return (
    <div className={styles.frame} data-testid={testId} data-route={route}>
      <div className={styles.main}>
        <div className={styles.head}>
          <h1 className={screens.title}>{t('pages.betting')}</h1>
          <OddsFormatSwitch />
        </div>
        {children}
      </div>
      <BetSlip />
    </div>
  );
}

const NO_PROVIDERS: readonly string[] = [];

/**
 * /betting: the house book (sports and their leagues, live and upcoming events with their main
 * market's prices) or, with `?book={provider}`, an external provider's book in its frame. With no
 * provider configured there is no switch and the page is the house book.
 */
export function BettingPage() {
  const [params] = useSearchParams();
  const sports = useSports();
  const providers = sports.data?.providers ?? NO_PROVIDERS;
  const book = params.get('book');
  // A provider's address opens on its frame while the list of providers loads.
  if (book !== null && (sports.isPending || providers.includes(book))) {
    return <ProviderBookPage provider={book} providers={providers} known={!sports.isPending} />;
  }
  return <HouseBook providers={providers} />;
}

function HouseBook({ providers }: { providers: readonly string[] }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { format } = useSlip();
  const sports = useSports();
  const tab: EventsTab = params.get('tab') === 'upcoming' ? 'upcoming' : 'live';
  const sport = params.get('sport');
  const league = params.get('league');
  const events = useEvents({ sport, league, status: tab }, format);
  useSlipFollows(events.data?.items);
  const chosen = sports.data?.items.find((item) => item.sport === sport);
  const choose = (next: { sport?: string | null; league?: string | null; tab?: EventsTab }) => {
    const search = new URLSearchParams(params);
    for (const [key, value] of Object.entries<string | null>(next)) {
      if (value === null) search.delete(key);
      else search.set(key, value);
    }
    setParams(search, { replace: true });
  };

  return (
    <BettingFrame testId="betting-page" eventIds={events.data?.items.map((item) => item.id) ?? []}>
      {providers.length > 0 ? <BookSwitch providers={providers} book={null} /> : null}
      <nav className={screens.tabs} aria-label={t('betting.sports')} data-testid="sports">
        <button type="button" className={screens.tab} aria-pressed={sport === null} onClick={() => { choose({ sport: null, league: null }); }}>
          {t('betting.allSports')}
        </button>
        {sports.data?.items.map((item) => (
          <button
            key={item.sport}
            type="button"
            className={screens.tab}
            aria-pressed={sport === item.sport}
            onClick={() => { choose({ sport: item.sport, league: null }); }}
          >
            {item.name} <span className={styles.count}>{String(tab === 'live' ? item.live : item.upcoming)}</span>
          </button>
        ))}
      </nav>
      {chosen ? (
        <nav className={screens.tabs} aria-label={t('betting.leagues')} data-testid="leagues">
          <button type="button" className={screens.tab} aria-pressed={league === null} onClick={() => { choose({ league: null }); }}>
            {t('betting.allLeagues')}
          </button>
          {chosen.leagues.map((item) => (
            <button key={item.name} type="button" className={screens.tab} aria-pressed={league === item.name} onClick={() => { choose({ league: item.name }); }}>
              {item.name}
            </button>
          ))}
        </nav>
      ) : null}
      <div className={screens.tabs} role="group" aria-label={t('betting.tabsLabel')}>
        {TABS.map((value) => (
          <button key={value} type="button" className={screens.tab} aria-pressed={tab === value} data-testid={`tab-${value}`} onClick={() => { choose({ tab: value }); }}>
            {t(`betting.tabs.${value}`)}
          </button>
        ))}
      </div>
      {events.isError ? (
        <p className={screens.muted} role="alert">
          {t('betting.loadFailed')}
        </p>
      ) : events.data?.items.length === 0 ? (
        <p className={screens.muted} data-testid="events-empty">
          {t(`betting.empty.${tab}`)}
        </p>
      ) : (
        <ul className={styles.events} aria-busy={events.isPending} data-testid="events">
          {events.data?.items.map((event) => <EventCard key={event.id} event={event} />)}
        </ul>
      )}
    </BettingFrame>
  );
}

/** /betting/event/{id}: one event with every market. */
export function BettingEventPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = Number(useParams().id);
  const { format } = useSlip();
  const event = useEvent(id, format);
  const data = event.data;
  useSlipFollows(data ? [data] : undefined);

  return (
    <BettingFrame testId="betting-event-page" eventIds={data ? [data.id] : []}>
      <Link className={styles.more} to={localizePath(paths.betting, locale)}>
        ← {t('betting.backToEvents')}
      </Link>
      {event.isError || !(Number.isSafeInteger(id) && id > 0) ? (
        <p className={screens.muted} role="alert" data-testid="event-missing">
          {t('betting.eventNotFound')}
        </p>
      ) : data ? (
        <>
          <div className={styles.eventHero}>
            <h2 className={styles.eventTitle} data-testid="event-title">
              {data.home} v {data.away}
            </h2>
            <p className={styles.eventLeague}>{data.league}</p>
            <EventState event={data} />
          </div>
          <div className={styles.markets}>
            {data.markets.map((market) => (
              <section key={market.id} className={styles.market} data-testid="market" data-state={market.state} data-key={market.key} aria-label={market.name}>
                <h3 className={styles.marketName}>
                  {market.name}
                  {market.state !== 'active' ? (
                    <span className={styles.badge}>{market.state === 'suspended' ? t('betting.suspended') : t('betting.closed')}</span>
                  ) : null}
                </h3>
                <div className={styles.oddsGrid}>
                  {market.selections.map((selection) => (
                    <OddsButton key={selection.id} event={data} market={market} selection={selection} />
                  ))}
                </div>
              </section>
            ))}
          </div>
        </>
      ) : (
        <div className={styles.placeholder} aria-busy="true" />
      )}
    </BettingFrame>
  );
}
