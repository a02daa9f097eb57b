import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { getHouseHistory, getSeeds, roundParams, rotateSeeds, verifyRound, type HouseRound } from '@/features/games/api';
import screens from '@/components/screens.module.css';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { checkRound, type VerifyResult } from './verify';
import styles from './game.module.css';

/**
 * Checks one house round: re-derives it from the revealed server seed and compares every recorded
 * outcome value; before the seeds are rotated it says how to reveal the seed.
 */
export function VerifyRound({ round }: { round: HouseRound }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<VerifyResult | 'error' | null>(null);
  const verify = useMutation({
    mutationFn: () => {
      if (!round.server_seed) throw new Error('not revealed');
      return verifyRound(round.game, round.server_seed, round.client_seed, round.nonce, roundParams(round));
    },
    onSuccess: (verification) => {
      setResult(checkRound(round, verification));
    },
    onError: () => {
      setResult('error');
    },
  });
  return (
    <>
      {round.server_seed ? (
        <Button variant="secondary" disabled={verify.isPending} onClick={() => { verify.mutate(); }}>
          {t('gamePage.verify')}
        </Button>
      ) : (
        <span className={screens.muted}>{t('gamePage.notRevealed')}</span>
      )}
      {result && (
        <span role="status" className={screens.status} data-status={result === 'verified' ? 'success' : 'fail'} data-testid="verify-result">
          {t(`gamePage.verifyResult.${result}`)}
        </span>
      )}
    </>
  );
}

function RoundItem({ round }: { round: HouseRound }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={screens.item} data-testid="fair-round">
      <span>
        {round.game} · #{round.nonce} · {formatDate(round.created_at)} {formatTime(round.created_at)}
      </span>
      <span className={screens.amount}>
        {formatMoney(round.bet, round.currency, locale)} → {formatMoney(round.win, round.currency, locale)}
      </span>
      <span className={screens.mono}>{t('gamePage.hash')}: {round.server_seed_hash}</span>
      <VerifyRound round={round} />
    </li>
  );
}

/** Provably fair: the seeds in use, rotating them (revealing the old server seed), and checking rounds. */
export function FairnessPanel({ token }: { token: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [clientSeed, setClientSeed] = useState('');
  const seeds = useQuery({ queryKey: ['fair', token, 'seeds'], queryFn: () => getSeeds(token) });
  const history = useQuery({ queryKey: ['fair', token, 'history'], queryFn: () => getHouseHistory(token) });
  const rotate = useMutation({
    mutationFn: () => rotateSeeds(token, clientSeed.trim()),
    onSuccess: () => {
      setClientSeed('');
      void queryClient.invalidateQueries({ queryKey: ['fair', token] });
    },
  });
  const valid = clientSeed.trim() === '' || /^[A-Za-z0-9]{1,64}$/.test(clientSeed.trim());

  return (
    <div className={styles.fair} data-testid="fairness">
      <p className={screens.muted}>{t('gamePage.fairIntro')}</p>
      {seeds.data ? (
        <dl className={screens.dl}>
          <dt>{t('gamePage.serverHash')}</dt>
          <dd className={screens.mono} data-testid="server-seed-hash">
            {seeds.data.server_seed_hash}
          </dd>
          <dt>{t('gamePage.clientSeed')}</dt>
          <dd className={screens.mono}>{seeds.data.client_seed}</dd>
          <dt>{t('gamePage.nonce')}</dt>
          <dd>{seeds.data.nonce}</dd>
        </dl>
      ) : (
        <Spinner label={t('app.loading')} />
      )}
      <form
        className={screens.form}
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) rotate.mutate();
        }}
      >
        <TextField
          label={t('gamePage.newClientSeed')}
          name="client_seed"
          value={clientSeed}
          onValueChange={setClientSeed}
          error={valid ? undefined : t('gamePage.clientSeedRule')}
          hint={t('gamePage.rotateHint')}
        />
        <div>
          <Button type="submit" disabled={rotate.isPending || !valid}>
            {t('gamePage.rotate')}
          </Button>
        </div>
        {rotate.data && (
          <p className={screens.notice} role="status">
            {t('gamePage.revealed')} <span className={screens.mono}>{rotate.data.previous.server_seed}</span>
          </p>
        )}
      </form>
      <h3 className={screens.cardTitle}>{t('gamePage.rounds')}</h3>
      {history.data?.length === 0 && <p className={screens.muted}>{t('gamePage.noRounds')}</p>}
      <ul className={screens.list}>
        {history.data?.map((round) => (
          <RoundItem key={round.round} round={round} />
        ))}
      </ul>
    </div>
  );
}
