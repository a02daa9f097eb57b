// Balance corrections: the ones waiting for a second operator (four eyes), and the decided ones.
// A correction is requested from the player's page; approving one applies it through the ledger
// (the server refuses the requester's own approval).
import { Datagrid, List, SelectField, SelectInput, TextField, TextInput, TopToolbar, useDataProvider, useRecordContext } from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import { Can } from '../components/can';
import { ExportCsvButton } from '../components/export-csv';
import { onlySortable } from '../components/sortable';
import { MoneyField, TimeField } from '../components/fields';
import type { BackofficeDataProvider } from '../lib/data-provider';

const STATES = ['pending_approval', 'applied', 'rejected'].map((id) => ({ id, name: `bo.correction_state.${id}` }));
const DIRECTIONS = ['credit', 'debit'].map((id) => ({ id, name: `bo.direction.${id}` }));
const REASON_CODES = ['goodwill', 'error', 'chargeback', 'fraud', 'other'].map((id) => ({ id, name: `bo.reason_code.${id}` }));

const filters = [
  <SelectInput key="state" source="state" choices={STATES} alwaysOn />,
  <TextInput key="user_id" source="user_id" label="bo.fields.user_id" alwaysOn />,
];

function Decide() {
  const record = useRecordContext();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  if (record?.state !== 'pending_approval') return null;
  return (
    <Can permission="balance.approve">
      <ActionDialogButton
        label="bo.corrections.approve"
        testId={`correction-approve-${String(record.id)}`}
        success="bo.corrections.approved"
        onSubmit={(values) => dataProvider.action('corrections', record.id, 'approve', { reason: values.reason })}
      />
      <ActionDialogButton
        label="bo.corrections.reject"
        color="error"
        testId={`correction-reject-${String(record.id)}`}
        success="bo.corrections.rejected"
        onSubmit={(values) => dataProvider.action('corrections', record.id, 'reject', { reason: values.reason })}
      />
    </Can>
  );
}

export function CorrectionList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={{ state: 'pending_approval' }}
      sort={{ field: 'id', order: 'DESC' }}
      actions={<TopToolbar><ExportCsvButton /></TopToolbar>}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        {onlySortable(
          ['id', 'created_at', 'amount'],
          <>
            <TextField source="id" />
            <TextField source="user_id" />
            <SelectField source="direction" choices={DIRECTIONS} />
            <MoneyField source="amount" />
            <SelectField source="reason_code" choices={REASON_CODES} />
            <TextField source="reason" />
            <SelectField source="state" choices={STATES} />
            <TextField source="requested_by_name" />
            <TextField source="decided_by_name" emptyText="—" />
            <TimeField source="created_at" />
            <Decide />
          </>,
        )}
      </Datagrid>
    </List>
  );
}
