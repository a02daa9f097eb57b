// The withdrawal queue: pending → in review → approved → paid, or rejected; each transition with
// its reason, the history on the withdrawal's page; bulk approve of the selected rows (the server
// approves those within the operator's limit and reports the others).
import DoneAllIcon from '@mui/icons-material/DoneAll';
import { Box, List as MuiList, ListItem, ListItemText } from '@mui/material';
import { useState } from 'react';
import {
  ArrayField,
  BooleanField,
  Datagrid,
  List,
  SelectField,
  SelectInput,
  Show,
  ShowButton,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  useDataProvider,
  useListContext,
  useRecordContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import { Can } from '../components/can';
import { ExportCsvButton } from '../components/export-csv';
import { onlySortable } from '../components/sortable';
import { MoneyField, TimeField } from '../components/fields';
import type { BackofficeDataProvider, BulkResult } from '../lib/data-provider';

export const WITHDRAWAL_STATES = ['pending', 'in_review', 'approved', 'paid', 'rejected', 'cancelled'];
const STATE_CHOICES = WITHDRAWAL_STATES.map((id) => ({ id, name: `bo.withdrawal_state.${id}` }));

/** Which transitions each state allows (the server checks them again: 409 otherwise). */
export const TRANSITIONS: Record<string, string[]> = {
  pending: ['review', 'approve', 'reject'],
  in_review: ['approve', 'reject'],
  approved: ['paid', 'reject'],
};

const filters = [
  <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />,
  <TextInput key="user_id" source="user_id" label="bo.fields.user_id" alwaysOn />,
];

export function WithdrawalColumns({ bulk = false }: { bulk?: boolean }) {
  return (
    <Datagrid rowClick="show" bulkActionButtons={bulk ? <BulkApproveButton /> : false}>
      {onlySortable(
        ['id', 'created_at', 'updated_at', 'amount'],
        <>
          <TextField source="id" />
          <TextField source="user_id" />
          <MoneyField source="amount" />
          <TextField source="method" />
          <SelectField source="state" choices={STATE_CHOICES} />
          <BooleanField source="needs_second_approval" />
          <TimeField source="created_at" />
          <TimeField source="updated_at" />
          <ShowButton />
        </>,
      )}
    </Datagrid>
  );
}

function BulkApproveButton() {
  const { selectedIds, onUnselectItems } = useListContext();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const translate = useTranslate();
  const [results, setResults] = useState<BulkResult[]>([]);
  const failed = results.filter((result) => !result.ok);
  return (
    <Can permission="withdrawals.decide">
      <ActionDialogButton
        label="bo.withdrawals.bulk_approve"
        icon={<DoneAllIcon />}
        testId="withdrawals-bulk-approve"
        success={(answer) => {
          const list = answer as BulkResult[];
          return list.every((result) => result.ok) ? 'bo.withdrawals.bulk_done' : 'bo.withdrawals.bulk_partial';
        }}
        onSubmit={async (values) => {
          const answer = await dataProvider.bulkApprove(selectedIds as Identifier[], values.reason as string);
          setResults(answer);
          onUnselectItems();
          return answer;
        }}
      />
      {failed.length > 0 ? (
        <Box role="status" data-testid="bulk-results">
          <MuiList dense>
            {failed.map((result) => (
              <ListItem key={String(result.id)}>
                <ListItemText primary={translate('bo.withdrawals.bulk_failed', { id: String(result.id), error: result.error ?? result.state ?? '' })} />
              </ListItem>
            ))}
          </MuiList>
        </Box>
      ) : null}
    </Can>
  );
}

export function WithdrawalList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={{ state: 'pending' }}
      sort={{ field: 'id', order: 'ASC' }}
      actions={<TopToolbar><ExportCsvButton /></TopToolbar>}
    >
      <WithdrawalColumns bulk />
    </List>
  );
}

const ACTION_LABELS: Record<string, string> = {
  review: 'bo.withdrawals.review',
  approve: 'bo.withdrawals.approve',
  reject: 'bo.withdrawals.reject',
  paid: 'bo.withdrawals.paid',
};

function WithdrawalActions() {
  const record = useRecordContext();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  if (!record) return <TopToolbar />;
  const allowed = TRANSITIONS[String(record.state)] ?? [];
  return (
    <TopToolbar>
      <Can permission="withdrawals.decide">
        {allowed.map((action) => (
          <ActionDialogButton
            key={action}
            label={ACTION_LABELS[action] ?? action}
            testId={`withdrawal-${action}`}
            color={action === 'reject' ? 'error' : 'primary'}
            success="bo.withdrawals.done"
            onSubmit={(values) => dataProvider.action('withdrawals', record.id, action, { reason: values.reason })}
          />
        ))}
      </Can>
    </TopToolbar>
  );
}

export function WithdrawalShow() {
  return (
    <Show actions={<WithdrawalActions />}>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="user_id" />
        <MoneyField source="amount" />
        <TextField source="method" />
        <SelectField source="state" choices={STATE_CHOICES} />
        <BooleanField source="needs_second_approval" />
        <TimeField source="created_at" />
        <ArrayField source="approvals">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <TextField source="operator_name" label="bo.fields.operator" />
            <TimeField source="at" label="bo.fields.at" />
          </Datagrid>
        </ArrayField>
        <ArrayField source="history">
          <Datagrid bulkActionButtons={false} rowClick={false} data-testid="withdrawal-history">
            <TimeField source="at" label="bo.fields.at" />
            <SelectField source="from" label="bo.fields.from_state" choices={STATE_CHOICES} emptyText="—" />
            <SelectField source="to" label="bo.fields.to_state" choices={STATE_CHOICES} />
            <TextField source="operator_name" label="bo.fields.operator" emptyText="—" />
            <TextField source="reason" label="bo.fields.reason" emptyText="—" />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}
