// The audit trail (append-only: the server has no route that edits or deletes it) and the
// security refusals trail, both filterable; the audit trail exports as CSV.
import { Box } from '@mui/material';
import { Datagrid, List, SelectField, SelectInput, TextField, TextInput, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { ExportCsvButton } from '../components/export-csv';
import { onlySortable } from '../components/sortable';
import { TimeField } from '../components/fields';
import { timeFilters } from './deposits';

const OUTCOMES = ['ok', 'denied'].map((id) => ({ id, name: `bo.outcome.${id}` }));

const auditFilters = [
  <TextInput key="action" source="action" alwaysOn />,
  <TextInput key="user_id" source="user_id" label="bo.fields.user_id" alwaysOn />,
  <TextInput key="operator_id" source="operator_id" />,
  <SelectInput key="outcome" source="outcome" choices={OUTCOMES} />,
  ...timeFilters,
];

function BeforeAfter() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const block = (label: string, value: unknown) => (
    <Box sx={{ flex: '1 1 20rem', minWidth: 0 }}>
      <strong>{translate(label)}</strong>
      <Box component="pre" sx={{ fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}
      </Box>
    </Box>
  );
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
      {block('resources.audit.fields.before', record.before)}
      {block('resources.audit.fields.after', record.after)}
    </Box>
  );
}

export function AuditList() {
  return (
    <List filters={auditFilters} sort={{ field: 'id', order: 'DESC' }} actions={<TopToolbar><ExportCsvButton /></TopToolbar>}>
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<BeforeAfter />} data-testid="audit-list">
        {onlySortable(
          ['id', 'at', 'action', 'operator_id'],
          <>
            <TextField source="id" />
            <TimeField source="at" />
            <TextField source="operator_name" emptyText="—" />
            <TextField source="role" />
            <TextField source="ip" />
            <TextField source="action" />
            <TextField source="target_type" emptyText="—" />
            <TextField source="target_id" emptyText="—" />
            <TextField source="user_id" emptyText="—" />
            <TextField source="reason" emptyText="—" />
            <SelectField source="outcome" choices={OUTCOMES} />
          </>,
        )}
      </Datagrid>
    </List>
  );
}

const refusalFilters = [
  <TextInput key="action" source="action" alwaysOn />,
  <TextInput key="user_id" source="user_id" label="bo.fields.user_id" alwaysOn />,
  <TextInput key="ip" source="ip" />,
];

export function RefusalList() {
  return (
    <List filters={refusalFilters} sort={{ field: 'id', order: 'DESC' }} actions={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        {onlySortable(
          ['id', 'created_at'],
          <>
            <TextField source="id" />
            <TimeField source="created_at" />
            <TextField source="action" />
            <TextField source="reason" />
            <TextField source="subject" emptyText="—" />
            <TextField source="user_id" emptyText="—" />
            <TextField source="ip" emptyText="—" />
          </>,
        )}
      </Datagrid>
    </List>
  );
}
