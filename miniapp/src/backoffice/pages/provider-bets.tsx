// The bets players placed at external sportsbook providers (permission sportsbook.manage), over
// `/admin/sportsbook/provider-bets` mounted under `/backoffice/api/admin/...`: read-only, newest
// first, filtered and paged by the server (provider, player id, status), each row opening on its
// selections with their results — what an operator needs to answer a player's question.
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Datagrid, FunctionField, List, SelectField, SelectInput, TextField, TextInput, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { TimeField } from '../components/fields';
import { formatMoney } from '../lib/money';

export const PROVIDER_BET_STATUSES = ['open', 'settled', 'won', 'lost', 'void', 'cancelled'];

const STATUS_CHOICES = PROVIDER_BET_STATUSES.map((id) => ({ id, name: `bo.provider_bet_status.${id}` }));
const RESULT_CHOICES = ['open', 'won', 'lost', 'void', 'half_won', 'half_lost'].map((id) => ({ id, name: `bo.selection_result.${id}` }));

interface ProviderSelection {
  id: string;
  event: string;
  market: string;
  selection: string;
  odds: string;
  result: string;
  dead_heat: string | null;
}

interface ProviderBetRecord {
  id: number;
  currency: string;
  stake: number;
  potential: number;
  payout: number;
  expected_payout: number | null;
  status: string;
  selections: ProviderSelection[];
}

const filters = [
  <TextInput key="provider" source="provider" alwaysOn />,
  <TextInput key="user_id" source="user_id" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />,
];

function Minor({ source }: { source: 'stake' | 'potential' | 'payout' | 'expected_payout' }) {
  const record = useRecordContext<ProviderBetRecord>();
  const [locale] = useLocaleState();
  const value = record?.[source];
  if (!record || value === null || value === undefined) return <span>—</span>;
  return <span>{formatMoney(value, record.currency, locale)}</span>;
}

/** A bet's selections, opened under its row. */
function Selections() {
  const record = useRecordContext<ProviderBetRecord>();
  const translate = useTranslate();
  if (!record) return null;
  const result = (id: string) => translate(RESULT_CHOICES.find((choice) => choice.id === id)?.name ?? id, { _: id });
  return (
    <Table size="small" data-testid="provider-selections" aria-label={translate('bo.sportsbook.provider_selections')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('bo.sportsbook.event')}</TableCell>
          <TableCell>{translate('bo.sportsbook.market')}</TableCell>
          <TableCell>{translate('bo.sportsbook.selection')}</TableCell>
          <TableCell align="right">{translate('bo.sportsbook.odds')}</TableCell>
          <TableCell>{translate('bo.sportsbook.result')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {record.selections.map((leg) => (
          <TableRow key={leg.id} data-testid={`provider-selection-${leg.id}`}>
            <TableCell>{leg.event}</TableCell>
            <TableCell>{leg.market}</TableCell>
            <TableCell>{leg.selection}</TableCell>
            <TableCell align="right">{leg.odds}</TableCell>
            <TableCell>
              {result(leg.result)}
              {leg.dead_heat ? <Typography component="span" variant="body2">{` (${leg.dead_heat})`}</Typography> : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function ProviderBetList() {
  return (
    <List filters={filters} actions={false} sort={{ field: 'id', order: 'DESC' }} perPage={25}>
      <Datagrid bulkActionButtons={false} expand={<Selections />} rowClick="expand">
        <TextField source="id" sortable={false} />
        <TimeField source="created_at" sortable={false} />
        <TextField source="user_id" sortable={false} />
        <TextField source="provider" sortable={false} />
        <TextField source="bet_id" sortable={false} />
        <TextField source="kind" sortable={false} />
        <SelectField source="status" choices={STATUS_CHOICES} sortable={false} />
        <FunctionField source="stake" sortable={false} textAlign="right" render={() => <Minor source="stake" />} />
        <FunctionField source="potential" sortable={false} textAlign="right" render={() => <Minor source="potential" />} />
        <FunctionField source="payout" sortable={false} textAlign="right" render={() => <Minor source="payout" />} />
        <FunctionField source="expected_payout" sortable={false} textAlign="right" render={() => <Minor source="expected_payout" />} />
        <TimeField source="settled_at" sortable={false} emptyText="—" />
      </Datagrid>
    </List>
  );
}
