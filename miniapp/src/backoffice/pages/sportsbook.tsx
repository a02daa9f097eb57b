// The sportsbook operator pages (permission sportsbook.manage), over `/admin/sportsbook/...`
// mounted under `/backoffice/api/admin/...`: the markets with their liability (largest first), a
// market's page with its selections' liability and the actions suspend / reopen / settle / void /
// resettle (each with its reason; the server refuses what the market's state does not allow, 409),
// and the limits per sport and per player.
import BlockIcon from '@mui/icons-material/Block';
import GavelIcon from '@mui/icons-material/Gavel';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import ReplayIcon from '@mui/icons-material/Replay';
import {
  Box,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import {
  BooleanField,
  BooleanInput,
  Datagrid,
  FunctionField,
  List,
  NumberInput,
  SelectField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  Title,
  TopToolbar,
  required,
  useDataProvider,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import { Can } from '../components/can';
import { TimeField } from '../components/fields';
import type { BackofficeDataProvider } from '../lib/data-provider';
import type { FieldValues } from '../lib/http';
import { decimalToMinor, formatMoney, minorToDecimal } from '../lib/money';

export const SPORTS = ['football', 'tennis', 'basketball', 'ice_hockey'];
export const MARKET_STATES = ['active', 'suspended', 'settled', 'cancelled'];
export const RESULTS = ['won', 'lost', 'void', 'half_won', 'half_lost'];

const SPORT_CHOICES = SPORTS.map((id) => ({ id, name: `bo.sport.${id}` }));
const STATE_CHOICES = MARKET_STATES.map((id) => ({ id, name: `bo.market_state.${id}` }));
const RESULT_CHOICES = RESULTS.map((id) => ({ id, name: `bo.selection_result.${id}` }));
const HELD_CHOICES = [
  { id: 'true', name: 'bo.sportsbook.held_yes' },
  { id: 'false', name: 'bo.sportsbook.held_no' },
];

/** Which actions each market state allows (the server checks again). */
export function actionsFor(state: string, held: boolean): string[] {
  if (state === 'active') return ['suspend'];
  if (state === 'suspended') return held ? ['reopen', 'settle', 'void'] : ['suspend', 'settle', 'void'];
  if (state === 'settled') return ['resettle', 'void'];
  if (state === 'cancelled') return ['resettle'];
  return [];
}

interface CurrencyLiability {
  currency: string;
  bets: number;
  stakes: number;
  max_payout: number;
}

interface SelectionLiability {
  currency: string;
  bets: number;
  stakes: number;
  payout: number;
  net: number;
}

interface Selection {
  id: number;
  key: string;
  odds: string | null;
  result: string;
  dead_heat: string | null;
  liability: SelectionLiability[];
}

interface Market {
  id: number;
  event: string;
  market: string;
  state: string;
  held: boolean;
  liabilities: CurrencyLiability[];
  selections?: Selection[];
}

function Liabilities() {
  const record = useRecordContext<Market>();
  const [locale] = useLocaleState();
  if (!record || record.liabilities.length === 0) return <span>—</span>;
  return (
    <span>
      {record.liabilities.map((l) => `${formatMoney(l.max_payout, l.currency, locale)} (${String(l.bets)})`).join(' · ')}
    </span>
  );
}

const filters = [
  <SelectInput key="sport" source="sport" choices={SPORT_CHOICES} alwaysOn />,
  <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />,
  <SelectInput key="held" source="held" choices={HELD_CHOICES} alwaysOn />,
  <TextInput key="event_id" source="event_id" alwaysOn />,
];

export function SportsbookMarketList() {
  return (
    <List sort={{ field: 'liability', order: 'DESC' }} filters={filters} actions={false}>
      <Datagrid bulkActionButtons={false} rowClick="show">
        <TextField source="id" />
        <TextField source="event" />
        <SelectField source="sport" choices={SPORT_CHOICES} />
        <TextField source="market" />
        <SelectField source="state" choices={STATE_CHOICES} />
        <BooleanField source="held" />
        <FunctionField source="liability" render={() => <Liabilities />} />
        <TimeField source="starts_at" />
      </Datagrid>
    </List>
  );
}

function SelectionTable() {
  const record = useRecordContext<Market>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!record?.selections) return null;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
  return (
    <Table size="small" data-testid="selections">
      <TableHead>
        <TableRow>
          <TableCell>{translate('bo.sportsbook.selection')}</TableCell>
          <TableCell>{translate('bo.sportsbook.odds')}</TableCell>
          <TableCell>{translate('bo.sportsbook.result')}</TableCell>
          <TableCell>{translate('bo.sportsbook.stakes')}</TableCell>
          <TableCell>{translate('bo.sportsbook.payout')}</TableCell>
          <TableCell>{translate('bo.sportsbook.net')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {record.selections.map((s) => (
          <TableRow key={s.id} data-testid={`selection-${s.key}`}>
            <TableCell>{s.key}</TableCell>
            <TableCell>{s.odds ?? '—'}</TableCell>
            <TableCell>
              {translate(`bo.selection_result.${s.result}`, { _: s.result })}
              {s.dead_heat ? ` (${s.dead_heat})` : ''}
            </TableCell>
            <TableCell>{s.liability.map((l) => money(l.stakes, l.currency)).join(' · ') || '—'}</TableCell>
            <TableCell>{s.liability.map((l) => money(l.payout, l.currency)).join(' · ') || '—'}</TableCell>
            <TableCell>{s.liability.map((l) => money(l.net, l.currency)).join(' · ') || '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A form value as text ('' when absent or not a scalar). */
function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The results form's values (`result_home`, `dead_heat_home`, …) as the server's list. */
export function resultsBody(selections: Selection[], values: FieldValues): { selection: string; result: string; dead_heat?: string }[] {
  return selections.map((s) => {
    const result = textOf(values[`result_${s.key}`]);
    const deadHeat = textOf(values[`dead_heat_${s.key}`]).trim();
    return { selection: s.key, result, ...(deadHeat ? { dead_heat: deadHeat } : {}) };
  });
}

const ICONS: Record<string, ReactElement> = {
  suspend: <PauseIcon />,
  reopen: <PlayArrowIcon />,
  settle: <GavelIcon />,
  resettle: <ReplayIcon />,
  void: <BlockIcon />,
};

function MarketActions() {
  const record = useRecordContext<Market>();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  if (!record) return null;
  const withResults = (action: string) => action === 'settle' || action === 'resettle';
  return (
    <TopToolbar>
      <Can permission="sportsbook.manage">
        {actionsFor(record.state, record.held).map((action) => (
          <ActionDialogButton
            key={action}
            label={`bo.sportsbook.${action}`}
            icon={ICONS[action] ?? <GavelIcon />}
            testId={`market-${action}`}
            color={action === 'void' ? 'error' : 'primary'}
            success={`bo.sportsbook.done_${action}`}
            onSubmit={(values) =>
              dataProvider.admin(`sportsbook/markets/${String(record.id)}/${action}`, {
                reason: values.reason,
                ...(withResults(action) ? { results: resultsBody(record.selections ?? [], values) } : {}),
              })
            }
          >
            {withResults(action)
              ? (record.selections ?? []).map((s) => (
                  <Box key={s.key} sx={{ display: 'flex', gap: 2 }}>
                    <SelectInput
                      source={`result_${s.key}`}
                      label={s.key}
                      choices={RESULT_CHOICES}
                      validate={required()}
                    />
                    <TextInput source={`dead_heat_${s.key}`} label="bo.sportsbook.dead_heat" helperText={false} />
                  </Box>
                ))
              : null}
          </ActionDialogButton>
        ))}
      </Can>
    </TopToolbar>
  );
}

export function SportsbookMarketShow() {
  return (
    <Show actions={<MarketActions />}>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="event" />
        <TextField source="league" />
        <TextField source="market" />
        <SelectField source="state" choices={STATE_CHOICES} />
        <BooleanField source="held" />
        <TextField source="held_by" emptyText="—" />
        <TextField source="held_reason" emptyText="—" />
        <TextField source="feed_state" emptyText="—" />
        <TextField source="results_version" />
        <SelectionTable />
      </SimpleShowLayout>
    </Show>
  );
}

interface SportLimit {
  id: string;
  sport: string;
  currency: string;
  min_stake: number | null;
  max_stake: number | null;
  max_payout: number | null;
  reason: string;
  updated_by: string;
}

interface PlayerLimit {
  id: number;
  user_id: number;
  stake_factor_bp: number | null;
  max_stake: number | null;
  currency: string | null;
  blocked: boolean;
  reason: string;
  updated_by: string;
}

/** A typed amount (major units) in minor units, null when empty; `undefined` when not an amount. */
export function optionalMinor(text: unknown, currency: string): number | null | undefined {
  const value = textOf(text).trim();
  if (!value) return null;
  return decimalToMinor(value, currency) ?? undefined;
}

/** The limits per sport and per player, with a form for each. */
export function SportsbookLimitsPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['backoffice', 'sportsbook-limits'], queryFn: () => dataProvider.adminGet('sportsbook/limits') });
  const limits = {
    sports: (query.data?.sports ?? []) as SportLimit[],
    players: (query.data?.players ?? []) as PlayerLimit[],
  };
  const load = () => queryClient.invalidateQueries({ queryKey: ['backoffice', 'sportsbook-limits'] });
  const amount = (minor: number | null, currency: string | null) => (minor === null || !currency ? '—' : minorToDecimal(minor, currency));

  const invalid = (field: string) => Object.assign(new Error('bo.codes.INVALID'), { body: { errors: { [field]: 'bo.codes.INVALID' } } });

  const setSport = async (values: FieldValues) => {
    const currency = textOf(values.currency).trim().toUpperCase();
    const body: Record<string, unknown> = { currency, reason: values.reason };
    for (const field of ['min_stake', 'max_stake', 'max_payout']) {
      const minor = optionalMinor(values[field], currency);
      if (minor === undefined) throw invalid(field);
      body[field] = minor;
    }
    const result = await dataProvider.adminPut(`sportsbook/limits/sports/${encodeURIComponent(textOf(values.sport))}`, body);
    await load();
    return result;
  };

  const setPlayer = async (values: FieldValues) => {
    const factor = values.stake_factor_percent;
    const body: Record<string, unknown> = {
      stake_factor_bp: factor === null || factor === undefined || factor === '' ? null : Math.round(Number(factor) * 100),
      blocked: Boolean(values.blocked),
      reason: values.reason,
    };
    const minor = optionalMinor(values.max_stake, textOf(values.currency).trim().toUpperCase() || 'EUR');
    if (minor === undefined) throw invalid('max_stake');
    body.max_stake = minor;
    const result = await dataProvider.adminPut(`sportsbook/limits/players/${encodeURIComponent(textOf(values.user_id).trim())}`, body);
    await load();
    return result;
  };

  return (
    <Card>
      <Title title="bo.sportsbook.limits" />
      <CardContent>
        <Typography variant="h6">{translate('bo.sportsbook.sport_limits')}</Typography>
        <Table size="small" data-testid="sport-limits">
          <TableHead>
            <TableRow>
              <TableCell>{translate('bo.sportsbook.sport')}</TableCell>
              <TableCell>{translate('bo.fields.currency')}</TableCell>
              <TableCell>{translate('bo.sportsbook.min_stake')}</TableCell>
              <TableCell>{translate('bo.sportsbook.max_stake')}</TableCell>
              <TableCell>{translate('bo.sportsbook.max_payout')}</TableCell>
              <TableCell>{translate('bo.fields.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {limits.sports.map((l) => (
              <TableRow key={l.id}>
                <TableCell>{translate(`bo.sport.${l.sport}`, { _: l.sport })}</TableCell>
                <TableCell>{l.currency}</TableCell>
                <TableCell>{amount(l.min_stake, l.currency)}</TableCell>
                <TableCell>{amount(l.max_stake, l.currency)}</TableCell>
                <TableCell>{amount(l.max_payout, l.currency)}</TableCell>
                <TableCell>{l.reason}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <ActionDialogButton
          label="bo.sportsbook.set_sport_limits"
          testId="set-sport-limits"
          success="bo.sportsbook.limits_saved"
          defaultValues={{ currency: 'EUR' }}
          onSubmit={setSport}
        >
          <SelectInput source="sport" label="bo.sportsbook.sport" choices={SPORT_CHOICES} validate={required()} />
          <TextInput source="currency" label="bo.fields.currency" validate={required()} />
          <TextInput source="min_stake" label="bo.sportsbook.min_stake" />
          <TextInput source="max_stake" label="bo.sportsbook.max_stake" />
          <TextInput source="max_payout" label="bo.sportsbook.max_payout" />
        </ActionDialogButton>

        <Typography variant="h6" sx={{ mt: 3 }}>
          {translate('bo.sportsbook.player_limits')}
        </Typography>
        <Table size="small" data-testid="player-limits">
          <TableHead>
            <TableRow>
              <TableCell>{translate('bo.fields.user_id')}</TableCell>
              <TableCell>{translate('bo.sportsbook.stake_factor')}</TableCell>
              <TableCell>{translate('bo.sportsbook.max_stake')}</TableCell>
              <TableCell>{translate('bo.sportsbook.blocked')}</TableCell>
              <TableCell>{translate('bo.fields.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {limits.players.map((l) => (
              <TableRow key={l.id}>
                <TableCell>{l.user_id}</TableCell>
                <TableCell>{l.stake_factor_bp === null ? '—' : `${String(l.stake_factor_bp / 100)} %`}</TableCell>
                <TableCell>{amount(l.max_stake, l.currency)}</TableCell>
                <TableCell>{translate(l.blocked ? 'bo.sportsbook.held_yes' : 'bo.sportsbook.held_no')}</TableCell>
                <TableCell>{l.reason}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <ActionDialogButton
          label="bo.sportsbook.set_player_limits"
          testId="set-player-limits"
          success="bo.sportsbook.limits_saved"
          defaultValues={{ currency: 'EUR', blocked: false }}
          onSubmit={setPlayer}
        >
          <TextInput source="user_id" label="bo.fields.user_id" validate={required()} />
          <NumberInput source="stake_factor_percent" label="bo.sportsbook.stake_factor" min={0} max={100} />
          <TextInput source="currency" label="bo.fields.currency" helperText="bo.sportsbook.player_currency" />
          <TextInput source="max_stake" label="bo.sportsbook.max_stake" />
          <BooleanInput source="blocked" label="bo.sportsbook.blocked" />
        </ActionDialogButton>
      </CardContent>
    </Card>
  );
}
