// Players: search (id, e-mail, phone, Telegram id, login or nickname prefix — the server's `q`),
// and a player's page with everything an operator needs in tabs, and the actions their
// permissions allow: ban / unban, end sessions, notes, balance corrections, the verification
// review, and grants of a bonus, loyalty points or a cashback (pages/player-grants.tsx).
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import LogoutIcon from '@mui/icons-material/Logout';
import LoyaltyIcon from '@mui/icons-material/Loyalty';
import PriceChangeIcon from '@mui/icons-material/PriceChange';
import { Box, Typography } from '@mui/material';
import { Link } from 'react-router';
import {
  ArrayField,
  Button,
  BooleanField,
  Datagrid,
  DeleteButton,
  EmailField,
  Form,
  FunctionField,
  Labeled,
  List,
  Pagination,
  ReferenceManyField,
  SaveButton,
  SearchInput,
  SelectField,
  SelectInput,
  Show,
  ShowButton,
  TabbedShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  maxLength,
  required,
  useCreate,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import { Can } from '../components/can';
import { ExportCsvButton } from '../components/export-csv';
import { onlySortable } from '../components/sortable';
import { MoneyField, TimeField } from '../components/fields';
import type { BackofficeDataProvider } from '../lib/data-provider';
import type { FieldValues } from '../lib/http';
import { decimalToMinor } from '../lib/money';
import { DepositColumns } from './deposits';
import { GrantBonusButton, GrantCashbackButton, GrantPointsButton, VerificationButton } from './player-grants';
import { RoundColumns } from './rounds';
import { WithdrawalColumns } from './withdrawals';
import { PendingRequestIds } from '@/lib/request-id';

export const VERIFICATION_CHOICES = ['none', 'pending', 'verified', 'rejected'].map((id) => ({
  id,
  name: `bo.verification.${id}`,
}));

export function PlayerList() {
  const translate = useTranslate();
  const playerFilters = [<SearchInput key="q" source="q" alwaysOn placeholder={translate('bo.players.search')} />];
  return (
    <List filters={playerFilters} sort={{ field: 'id', order: 'DESC' }} actions={<TopToolbar><ExportCsvButton /></TopToolbar>}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        {onlySortable(
          ['id', 'created_at', 'fakename'],
          <>
            <TextField source="id" />
            <TextField source="login" />
            <EmailField source="email" />
            <TextField source="phone" />
            <TextField source="telegram_id" />
            <TextField source="country_code" />
            <MoneyField source="balances.main" sortable={false} />
            <SelectField source="verification" choices={VERIFICATION_CHOICES} />
            <BooleanField source="banned" />
            <TimeField source="created_at" />
            {/* The row opens on click; the button is the keyboard's way in. */}
            <ShowButton />
          </>,
        )}
      </Datagrid>
    </List>
  );
}

function PlayerTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <span>
      {translate('bo.players.title', { id: String(record.id), login: String(record.login ?? record.email ?? '') })}
    </span>
  );
}

const REASON_CODES = ['goodwill', 'error', 'chargeback', 'fraud', 'other'].map((id) => ({ id, name: `bo.reason_code.${id}` }));
const DIRECTIONS = ['credit', 'debit'].map((id) => ({ id, name: `bo.direction.${id}` }));

function useBackoffice() {
  return useDataProvider<BackofficeDataProvider>();
}

function BanButtons() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  return record.banned ? (
    <ActionDialogButton
      label="bo.players.unban"
      icon={<CheckCircleIcon />}
      testId="player-unban"
      success="bo.players.unbanned"
      onSubmit={(values) => dataProvider.action('players', record.id, 'unban', { reason: values.reason })}
    />
  ) : (
    <ActionDialogButton
      label="bo.players.ban"
      icon={<BlockIcon />}
      color="error"
      testId="player-ban"
      success="bo.players.banned"
      onSubmit={(values) => dataProvider.action('players', record.id, 'ban', { reason: values.reason })}
    />
  );
}

function amountValidator(value: unknown, values: FieldValues) {
  const currency = typeof values.currency === 'string' ? values.currency : '';
  return typeof value === 'string' && decimalToMinor(value, currency) !== null ? undefined : 'bo.codes.INVALID';
}

const correctionIds = new PendingRequestIds();

function CorrectBalanceButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  const currency = String(record.currency ?? '');
  return (
    <ActionDialogButton
      label="bo.corrections.correct"
      icon={<PriceChangeIcon />}
      testId="player-correct"
      defaultValues={{ direction: 'credit', currency, reason_code: 'goodwill' }}
      success={(result) =>
        (result as { data?: { state?: string } }).data?.state === 'pending_approval'
          ? 'bo.corrections.pending'
          : 'bo.corrections.applied'
      }
      onSubmit={async (values) => {
        const content = {
          user_id: record.id,
          direction: values.direction as string,
          amount: decimalToMinor(String(values.amount), String(values.currency)),
          currency: values.currency as string,
          reason_code: values.reason_code as string,
          reason: values.reason as string,
        };
        // The same correction sent again after a lost answer keeps its id: the server answers
        // the one it made instead of moving the money twice.
        const result = await dataProvider.create('corrections', {
          data: { ...content, request_id: correctionIds.idFor(content) },
        });
        correctionIds.done(content);
        return result;
      }}
    >
      <SelectInput source="direction" label="bo.fields.direction" choices={DIRECTIONS} validate={required()} fullWidth />
      <TextInput
        source="amount"
        label="bo.fields.amount_major"
        validate={[required(), amountValidator]}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        fullWidth
      />
      <TextInput source="currency" label="bo.fields.currency" validate={required()} fullWidth />
      <SelectInput source="reason_code" label="bo.fields.reason_code" choices={REASON_CODES} validate={required()} fullWidth />
    </ActionDialogButton>
  );
}

function EndSessionsButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  return (
    <ActionDialogButton
      label="bo.sessions.end_all"
      icon={<LogoutIcon />}
      testId="player-end-sessions"
      success="bo.sessions.ended"
      onSubmit={(values) => dataProvider.post(`/players/${String(record.id)}/sessions/end`, { reason: values.reason })}
    />
  );
}

/** The player's loyalty account on the Loyalty page (pages/loyalty.tsx reads `?player=`). */
function LoyaltyAccountLink() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Button
      component={Link}
      to={`/loyalty?player=${encodeURIComponent(String(record.id))}`}
      label="bo.grants.loyalty_account"
      data-testid="player-loyalty-account"
    >
      <LoyaltyIcon />
    </Button>
  );
}

function PlayerActions() {
  return (
    <TopToolbar>
      <Can permission="players.ban">
        <BanButtons />
      </Can>
      <Can permission="players.sessions">
        <EndSessionsButton />
      </Can>
      <Can permission="balance.correct">
        <CorrectBalanceButton />
      </Can>
      <Can permission="players.ban">
        <VerificationButton />
      </Can>
      <Can permission="campaigns.manage">
        <GrantBonusButton />
        <GrantPointsButton />
        <GrantCashbackButton />
        <LoyaltyAccountLink />
      </Can>
    </TopToolbar>
  );
}

function JsonBlock({ source }: { source: string }) {
  return (
    <FunctionField
      source={source}
      render={(record: RaRecord) => {
        const value = (record as Record<string, unknown>)[source];
        if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return '—';
        return (
          <Box component="pre" sx={{ m: 0, fontSize: 12, whiteSpace: 'pre-wrap' }}>
            {JSON.stringify(value, null, 2)}
          </Box>
        );
      }}
    />
  );
}

function AddNote() {
  const record = useRecordContext();
  const [create] = useCreate();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const submit = async (values: FieldValues) => {
    try {
      await create('notes', { data: { user_id: record.id, text: values.text as string } }, { returnPromise: true });
    } catch (error) {
      const refusal = error as { message?: string; body?: { errors?: Record<string, string> } };
      notify(refusal.message ?? 'ra.notification.http_error', { type: 'error' });
      return refusal.body?.errors;
    }
    notify('bo.notes.added', { type: 'success' });
    refresh();
    return undefined;
  };
  return (
    <Form onSubmit={submit} defaultValues={{ text: '' }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextInput
          source="text"
          label="bo.notes.text"
          validate={[required(), maxLength(2000)]}
          multiline
          sx={{ flex: '1 1 20rem' }}
        />
        <SaveButton label="bo.notes.add" alwaysEnable sx={{ mt: 1 }} />
      </Box>
    </Form>
  );
}

function ManyField({ reference, children, sort }: { reference: string; children: React.ReactNode; sort?: { field: string; order: 'ASC' | 'DESC' } }) {
  return (
    <ReferenceManyField
      reference={reference}
      target="user_id"
      perPage={25}
      pagination={<Pagination />}
      sort={sort ?? { field: 'id', order: 'DESC' }}
    >
      {children}
    </ReferenceManyField>
  );
}

export function PlayerShow() {
  const translate = useTranslate();
  return (
    <Show title={<PlayerTitle />} actions={<PlayerActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="bo.tabs.summary">
          <TextField source="id" />
          <TextField source="login" />
          <TextField source="fakename" />
          <EmailField source="email" />
          <TextField source="phone" />
          <TextField source="telegram_id" />
          <TextField source="country_code" />
          <TextField source="currency" />
          <TimeField source="created_at" />
          <SelectField source="verification" choices={VERIFICATION_CHOICES} />
          <BooleanField source="two_factor" />
          <BooleanField source="banned" />
          <TextField source="ban_reason" emptyText="—" />
          <Typography variant="h6" component="h2">
            {translate('bo.players.balances')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 4, flexWrap: 'wrap' }} data-testid="player-balances">
            <Labeled label="bo.balance.main">
              <MoneyField source="balances.main" />
            </Labeled>
            <Labeled label="bo.balance.bonus">
              <MoneyField source="balances.bonus" />
            </Labeled>
            <Labeled label="bo.balance.betting_bonus">
              <MoneyField source="balances.betting_bonus" />
            </Labeled>
          </Box>
          <ArrayField source="contacts">
            <Datagrid bulkActionButtons={false} rowClick={false}>
              <TextField source="kind" label="bo.fields.kind" />
              <TextField source="value" label="bo.fields.value" />
              <BooleanField source="confirmed" label="bo.fields.confirmed" />
            </Datagrid>
          </ArrayField>
          <JsonBlock source="limits" />
          <JsonBlock source="exclusions" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.ledger" path="ledger">
          <ManyField reference="ledger">
            <Datagrid bulkActionButtons={false} rowClick={false}>
              {onlySortable(
                ['id', 'created_at', 'amount'],
                <>
                  <TextField source="id" />
                  <TimeField source="created_at" />
                  <TextField source="kind" />
                  <TextField source="balance_kind" />
                  <MoneyField source="amount" signed />
                  <TextField source="reference" />
                </>,
              )}
            </Datagrid>
          </ManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.deposits" path="deposits">
          <ManyField reference="deposits">
            <DepositColumns />
          </ManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.withdrawals" path="withdrawals">
          <ManyField reference="withdrawals">
            <WithdrawalColumns />
          </ManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.rounds" path="rounds">
          <ManyField reference="rounds">
            <RoundColumns />
          </ManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.bonuses" path="bonuses">
          <ManyField reference="bonuses">
            <Datagrid bulkActionButtons={false} rowClick={false}>
              {onlySortable(
                ['id'],
                <>
                  <TextField source="id" />
                  <TextField source="title" emptyText="—" />
                  <TextField source="status" />
                  <MoneyField source="amount" />
                  <TimeField source="created_at" />
                </>,
              )}
            </Datagrid>
          </ManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.sessions" path="sessions">
          <ManyField reference="sessions" sort={{ field: 'last_seen_at', order: 'DESC' }}>
            <Datagrid bulkActionButtons={false} rowClick={false}>
              {onlySortable(
                ['created_at', 'last_seen_at'],
                <>
                  <TextField source="id" />
                  <TimeField source="created_at" />
                  <TimeField source="last_seen_at" />
                  <TextField source="ip" />
                  <TextField source="user_agent" />
                  <Can permission="players.sessions">
                    <DeleteButton
                      label="bo.sessions.end"
                      mutationMode="pessimistic"
                      redirect={false}
                      confirmTitle="bo.sessions.end_title"
                      confirmContent="bo.sessions.end_confirm"
                      successMessage="bo.sessions.ended"
                    />
                  </Can>
                </>,
              )}
            </Datagrid>
          </ManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="bo.tabs.notes" path="notes">
          <Can permission="players.notes">
            <AddNote />
          </Can>
          <ManyField reference="notes" sort={{ field: 'created_at', order: 'DESC' }}>
            <Datagrid bulkActionButtons={false} rowClick={false}>
              {onlySortable(
                ['id', 'created_at'],
                <>
                  <TimeField source="created_at" />
                  <TextField source="operator_name" />
                  <TextField source="text" />
                </>,
              )}
            </Datagrid>
          </ManyField>
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
