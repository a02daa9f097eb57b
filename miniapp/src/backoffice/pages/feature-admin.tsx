// The feature admin lists (tournaments, jackpots, cashbacks; campaigns have their own page,
// pages/campaigns.tsx) and the support feedback: the older `/admin` answers under
// `/backoffice/api/admin/...`. Lists only for now; each feature's own issue adds its editing pages.
import { Datagrid, List, NumberField, SelectInput, TextField } from 'react-admin';
import { MoneyField, TimeField } from '../components/fields';

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

export function FeedbackList() {
  return (
    <List sort={{ field: 'id', order: 'DESC' }} actions={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TimeField source="created_at" />
        <TextField source="user_id" emptyText="—" />
        <TextField source="name" />
        <TextField source="email" />
        <TextField source="locale" />
        <TextField source="message" sx={{ whiteSpace: 'pre-wrap' }} />
        <TimeField source="emailed_at" emptyText="—" />
      </Datagrid>
    </List>
  );
}
