// Game rounds: every bet and win, filterable by player, game, provider and time, exportable as CSV.
import { Datagrid, List, TextField, TextInput, TopToolbar } from 'react-admin';
import { ExportCsvButton } from '../components/export-csv';
import { onlySortable } from '../components/sortable';
import { MoneyField, TimeField } from '../components/fields';
import { timeFilters } from './deposits';

const filters = [
  <TextInput key="user_id" source="user_id" label="bo.fields.user_id" alwaysOn />,
  <TextInput key="game" source="game" alwaysOn />,
  <TextInput key="provider" source="provider" />,
  ...timeFilters,
];

export function RoundColumns() {
  return (
    <Datagrid bulkActionButtons={false} rowClick={false}>
      {onlySortable(
        ['id', 'created_at', 'bet', 'win'],
        <>
          <TextField source="id" />
          <TextField source="user_id" />
          <TextField source="game" />
          <TextField source="provider" />
          <MoneyField source="bet" sortable={false} />
          <MoneyField source="win" sortable={false} />
          <TextField source="status" />
          <TimeField source="created_at" />
        </>,
      )}
    </Datagrid>
  );
}

export function RoundList() {
  return (
    <List filters={filters} sort={{ field: 'id', order: 'DESC' }} actions={<TopToolbar><ExportCsvButton /></TopToolbar>}>
      <RoundColumns />
    </List>
  );
}
