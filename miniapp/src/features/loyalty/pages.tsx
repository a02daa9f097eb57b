// `/loyalty`, `/loyalty/{sysname}` and the profile's loyalty tab. Test ids: loyalty-page,
// loyalty-points, loyalty-lifetime, loyalty-level, loyalty-progress, loyalty-level-item,
// loyalty-program, loyalty-quest, loyalty-program-page, loyalty-shop-link, loyalty-sign-in,
// profile-loyalty, profile-loyalty-character, character-change.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { useSiteConfig } from '@/config/site-config';
import { useAccount } from '@/features/account';
import { useLoyaltyContent } from '@/features/content';
import { ApiError } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { getProgram, loyaltyKeys } from './api/loyalty';
import { openCharacterChange } from './characters';
import styles from './loyalty.module.css';
import { LevelsList, LoyaltySummary, ProgramCard, QuestItem } from './parts';
import { useLoyaltyInfo, usePrograms } from './use-loyalty';

/** What the loyalty pages show when the content switches the programme off. */
export function LoyaltyOff() {
  const { t } = useTranslation();
  const route = useRouteHandle()?.name;
  return (
    <div className={screens.page} data-route={route}>
      <p className={screens.notice} data-testid="loyalty-off">
        {t('loyalty.off')}
      </p>
    </div>
  );
}

/** `/loyalty`: the programme, the player's standing, the levels and the quests. */
export function LoyaltyPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const account = useAccount();
  const content = useLoyaltyContent();
  const info = useLoyaltyInfo();
  const programs = usePrograms();
  const { switches } = useSiteConfig();
  const route = useRouteHandle()?.name;
  if (!switches.loyalty) return <LoyaltyOff />;
  return (
    <div className={screens.page} data-testid="loyalty-page" data-route={route}>
      <h1 className={screens.title}>{content.data?.title ?? t('pages.loyalty')}</h1>
      {content.data?.description && <p>{content.data.description}</p>}
      {account === undefined && (
        <p className={screens.notice} data-testid="loyalty-sign-in">
          {t('loyalty.signIn')}
        </p>
      )}
      {info.isPending && account !== undefined && <Spinner label={t('app.loading')} />}
      {info.isError && <p className={screens.alert}>{t('loyalty.failed')}</p>}
      {info.data && <LoyaltySummary info={info.data} />}
      <p>
        <Link to={localizePath('/loyalty/shop', locale)} data-testid="loyalty-shop-link">
          {t('loyalty.toShop')}
        </Link>
      </p>
      {info.data && (
        <section className={screens.card}>
          <h2 className={screens.subtitle}>{t('loyalty.levels')}</h2>
          <LevelsList levels={info.data.levels} alias={info.data.pointsAlias} />
        </section>
      )}
      {programs.data && programs.data.items.length > 0 && (
        <section className={screens.card}>
          <h2 className={screens.subtitle}>{t('loyalty.programs')}</h2>
          <ul className={styles.grid}>
            {programs.data.items.map((p) => (
              <ProgramCard key={p.id} program={p} />
            ))}
          </ul>
        </section>
      )}
      {content.data?.rulesHtml && (
        <section className={screens.card}>
          <h2 className={screens.subtitle}>{t('loyalty.rules')}</h2>
          <div dangerouslySetInnerHTML={{ __html: content.data.rulesHtml }} />
        </section>
      )}
    </div>
  );
}

/** `/loyalty/{sysname}`: one programme and its quests. */
export function LoyaltyProgramPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { sysname = '' } = useParams();
  const account = useAccount();
  const program = useQuery({
    queryKey: [...loyaltyKeys.program(sysname), account?.uid ?? 0],
    queryFn: ({ signal }) => getProgram(sysname, { signal }),
    enabled: account !== undefined,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  const { switches } = useSiteConfig();
  const route = useRouteHandle()?.name;
  const back = (
    <Link to={localizePath('/loyalty', locale)} data-testid="loyalty-back">
      {t('loyalty.back')}
    </Link>
  );
  if (!switches.loyalty) return <LoyaltyOff />;
  if (account === undefined) {
    return (
      <div className={screens.page} data-route={route}>
        <p className={screens.notice} data-testid="loyalty-sign-in">{t('loyalty.signIn')}</p>
        {back}
      </div>
    );
  }
  if (program.isPending) {
    return (
      <div className={screens.page} data-route={route}>
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  if (program.isError) {
    const missing = program.error instanceof ApiError && program.error.fieldErrors.sysname?.[0] === 'NOT_FOUND';
    return (
      <div className={screens.page} data-testid="loyalty-program-missing" data-route={route}>
        <p className={screens.notice}>{missing ? t('loyalty.programMissing') : t('loyalty.failed')}</p>
        {back}
      </div>
    );
  }
  return (
    <div className={screens.page} data-testid="loyalty-program-page" data-route={route}>
      <h1 className={screens.title}>{program.data.title}</h1>
      {program.data.description && <p>{program.data.description}</p>}
      <p className={screens.muted}>{t('loyalty.questsDone', { done: program.data.completed, total: program.data.total })}</p>
      <ul className={styles.grid}>
        {program.data.quests.map((q) => (
          <QuestItem key={q.id} quest={q} />
        ))}
      </ul>
      {back}
    </div>
  );
}

/** `/profile/loyalty`: the player's points, level and character. */
export function ProfileLoyalty() {
  const { t } = useTranslation();
  const locale = useLocale();
  const info = useLoyaltyInfo();
  const { switches } = useSiteConfig();
  if (!switches.loyalty) return <LoyaltyOff />;
  if (info.isPending) return <Spinner label={t('app.loading')} />;
  if (info.isError) return <p className={screens.alert}>{t('loyalty.failed')}</p>;
  const character = info.data.character;
  return (
    <div className={screens.page} data-testid="profile-loyalty">
      <LoyaltySummary info={info.data} />
      {switches.characters && (
      <section className={screens.card} data-testid="profile-loyalty-character" data-character={character?.sysname ?? ''}>
        <h2 className={screens.subtitle}>{t('loyalty.character.title')}</h2>
        {character ? (
          <p>
            {character.image && <img className={styles.tileImage} src={character.image} alt="" />}
            <strong>{character.title}</strong> {character.description}
          </p>
        ) : (
          <p className={screens.muted}>{t('loyalty.character.none')}</p>
        )}
        <Button data-testid="character-change" onClick={openCharacterChange}>
          {t('loyalty.character.change')}
        </Button>
      </section>
      )}
      <p>
        <Link to={localizePath('/loyalty', locale)}>{t('loyalty.toClub')}</Link> ·{' '}
        <Link to={localizePath('/loyalty/shop', locale)}>{t('loyalty.toShop')}</Link>
      </p>
    </div>
  );
}
