// Deposits: every payment in, filterable by player, status, method and time, exportable as CSV.
import { Datagrid, DateInput, List, TextField, TextInput, TopToolbar, SelectInput } from 'react-admin';
import { ExportCsvButton } from '../components/export-csv';
import { onlySortable } from '../components/sortable';
import { MoneyField, TimeField } from '../components/fields';
import { dayToSeconds } from '../lib/dates';

const STATUSES = ['pending', 'success', 'fail', 'cancel'].map((id) => ({ id, name: `bo.deposit_status.${id}` }));

export const timeFilters = [
  <DateInput key="from" source="from" label="bo.fields.from" parse={dayToSeconds} format={secondsToDay} />,
  <DateInput key="to" source="to" label="bo.fields.to" parse={(day: string) => dayToSeconds(day, true)} format={secondsToDay} />,
];

function secondsToDay(value: unknown): string {
  if (typeof value !== 'number') return '';
  return new Date(value * 1000).toISOString().slice(0, 10);
}

const filters = [
  <TextInput key="user_id" source="user_id" label="bo.fields.user_id" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />,
  <TextInput key="method" source="method" />,
  ...timeFilters,
];

export function DepositColumns() {
  return (
    <Datagrid bulkActionButtons={false} rowClick={false}>
      {onlySortable(
        ['id', 'created_at', 'updated_at', 'amount'],
        <>
          <TextField source="id" />
          <TextField source="user_id" />
          <MoneyField source="amount" />
          <TextField source="method" />
          <TextField source="provider" />
          <TextField source="status" />
          <TimeField source="created_at" />
          <TimeField source="updated_at" />
        </>,
      )}
    </Datagrid>
  );
}

export function DepositList() {
  return (
    <List filters={filters} sort={{ field: 'id', order: 'DESC' }} actions={<TopToolbar><ExportCsvButton /></TopToolbar>}>
      <DepositColumns />
    </List>
  );
}
