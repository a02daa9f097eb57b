// The feature admin lists (campaigns, tournaments, jackpots, cashbacks): the older `/admin`
// answers under `/backoffice/api/admin/...`. Lists only for now; each feature's own issue adds
// its editing pages.
import { Datagrid, List, NumberField, SelectInput, TextField } from 'react-admin';
import { MoneyField, TimeField } from '../components/fields';

export function CampaignList() {
  return (
    <List sort={{ field: 'id', order: 'DESC' }} actions={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="sysname" />
        <TextField source="title_en" />
        <TextField source="status" />
        <TextField source="trigger" />
        <TextField source="reward" />
        <NumberField source="takers" />
        <NumberField source="max_takers" emptyText="—" />
        <TimeField source="starts_at" emptyText="—" />
        <TimeField source="ends_at" emptyText="—" />
      </Datagrid>
    </List>
  );
}

export function TournamentList() {
  return (
    <List sort={{ field: 'id', order: 'DESC' }} actions={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="title_en" />
        <TextField source="status" />
        <TextField source="scoring" />
        <TimeField source="starts_at" />
        <TimeField source="ends_at" />
      </Datagrid>
    </List>
  );
}

export function JackpotList() {
  return (
    <List sort={{ field: 'id', order: 'ASC' }} actions={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="title_en" />
        <TextField source="status" />
        <MoneyField source="amount" />
        <MoneyField source="seed" />
        <NumberField source="cycle" />
      </Datagrid>
    </List>
  );
}

const CASHBACK_STATUSES = ['pending', 'active', 'paid_out', 'rejected', 'expired', 'removed'].map((id) => ({
  id,
  name: `bo.cashback_status.${id}`,
}));

export function CashbackList() {
  return (
    <List
      sort={{ field: 'id', order: 'DESC' }}
      filters={[<SelectInput key="status" source="status" choices={CASHBACK_STATUSES} alwaysOn />]}
      filterDefaultValues={{ status: 'pending' }}
      actions={false}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="user_id" />
        <TextField source="status" />
        <TextField source="amount.amount" />
        <TextField source="amount.currency" />
        <TextField source="programme_id" emptyText="—" />
        <TimeField source="created_at" />
      </Datagrid>
    </List>
  );
}
