// Operators (admins only): create one (they enrol their TOTP at their first sign-in), change a
// role, disable, reset the TOTP of one who lost their device.
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  EmailField,
  List,
  PasswordInput,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  CreateButton,
  email,
  minLength,
  required,
  useDataProvider,
  useRecordContext,
} from 'react-admin';
import { ActionDialogButton, reasonValidators } from '../components/action-dialog';
import { onlySortable } from '../components/sortable';
import { TimeField } from '../components/fields';
import type { BackofficeDataProvider } from '../lib/data-provider';

export const ROLES = ['admin', 'finance', 'support', 'marketing', 'content'].map((id) => ({ id, name: `bo.role.${id}` }));

export function OperatorList() {
  return (
    <List sort={{ field: 'id', order: 'ASC' }} actions={<TopToolbar><CreateButton /></TopToolbar>}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        {onlySortable(
          ['id', 'email', 'name', 'created_at'],
          <>
            <TextField source="id" />
            <EmailField source="email" />
            <TextField source="name" />
            <SelectField source="role" choices={ROLES} />
            <BooleanField source="enrolled" />
            <BooleanField source="disabled" />
            <TimeField source="last_sign_in_at" emptyText="—" />
            <TimeField source="created_at" />
          </>,
        )}
      </Datagrid>
    </List>
  );
}

export function OperatorCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <TextInput source="email" validate={[required(), email()]} type="email" />
        <TextInput source="name" validate={required()} />
        <SelectInput source="role" choices={ROLES} validate={required()} />
        <PasswordInput source="password" validate={[required(), minLength(12)]} autoComplete="new-password" />
      </SimpleForm>
    </Create>
  );
}

function ResetTotpButton() {
  const record = useRecordContext();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  if (!record) return null;
  return (
    <ActionDialogButton
      label="bo.operators.reset_totp"
      testId="operator-reset-totp"
      success="bo.operators.totp_reset"
      onSubmit={(values) => dataProvider.action('operators', record.id, 'reset-totp', { reason: values.reason })}
    />
  );
}

export function OperatorEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      actions={<TopToolbar><ResetTotpButton /></TopToolbar>}
      transform={(data: Record<string, unknown>) => ({
        name: data.name,
        role: data.role,
        disabled: data.disabled,
        reason: data.reason,
      })}
    >
      <SimpleForm>
        <TextField source="email" />
        <TextInput source="name" validate={required()} />
        <SelectInput source="role" choices={ROLES} validate={required()} />
        <BooleanInput source="disabled" />
        <TextInput source="reason" label="bo.fields.reason" validate={reasonValidators} multiline fullWidth defaultValue="" />
      </SimpleForm>
    </Edit>
  );
}
