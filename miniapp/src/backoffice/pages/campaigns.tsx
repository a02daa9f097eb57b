// Campaigns (bonuses/admin.rs over `/backoffice/api/admin/campaigns`): the list, a create and an
// edit form (trigger, reward, per-currency amounts, window, claim and wager days, texts in English
// and French, status), the status actions (pause, resume, end) and the campaign's promo codes
// (made here for a promo-code campaign, paused and resumed; the server has no promo-code list of
// its own: a campaign answers its codes).
//
// Saving replaces the whole campaign (`PUT` takes every field). A campaign answer that lacks some
// of the fields (the server's answer is a summary today) leaves them empty in the form, and the
// edit page names them so nothing is cleared unknowingly.
import AddIcon from '@mui/icons-material/Add';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import { Alert, Box, Typography } from '@mui/material';
import {
  ArrayInput,
  BooleanInput,
  Create,
  CreateButton,
  Datagrid,
  DateTimeInput,
  Edit,
  EditButton,
  FormDataConsumer,
  List,
  NumberField,
  NumberInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  TopToolbar,
  required,
  useDataProvider,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import { Can } from '../components/can';
import { TimeField } from '../components/fields';
import {
  CAMPAIGN_STATUSES,
  CURRENCIES,
  REWARDS,
  TRIGGERS,
  campaignBody,
  campaignValues,
  emptyCampaign,
  isPromoCode,
  missingKeys,
  PERCENT_REWARDS,
  validateCampaign,
  type CampaignValues,
} from '../lib/campaigns';
import type { BackofficeDataProvider } from '../lib/data-provider';

const choices = (ids: readonly string[], prefix: string) => ids.map((id) => ({ id, name: `${prefix}.${id}` }));
// An ended campaign shows its status, which no save can set (the server takes draft, active or paused).
const STATUS_CHOICES = [
  ...choices(CAMPAIGN_STATUSES, 'bo.campaign_status'),
  { id: 'ended', name: 'bo.campaign_status.ended', disabled: true },
];
const TRIGGER_CHOICES = choices(TRIGGERS, 'bo.campaign_trigger');
const REWARD_CHOICES = choices(REWARDS, 'bo.campaign_reward');
const CURRENCY_CHOICES = CURRENCIES.map((id) => ({ id, name: id }));

export function CampaignList() {
  return (
    <List
      sort={{ field: 'id', order: 'DESC' }}
      actions={
        <TopToolbar>
          <Can permission="campaigns.manage">
            <CreateButton />
          </Can>
        </TopToolbar>
      }
    >
      <Datagrid bulkActionButtons={false} rowClick="edit">
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
        <EditButton />
      </Datagrid>
    </List>
  );
}

const validate = (values: Record<string, unknown>) => validateCampaign(values as unknown as CampaignValues);
const transform = (values: Record<string, unknown>) => campaignBody(values as unknown as CampaignValues);

/** The campaign form: the same for a new campaign and an edited one. */
function CampaignForm({ record }: { record: Partial<CampaignValues> & { id?: RaRecord['id'] } }) {
  const translate = useTranslate();
  const amountHelp = translate('bo.campaigns.amount_help');
  return (
    <SimpleForm record={record} validate={validate} mode="onBlur" reValidateMode="onBlur" warnWhenUnsavedChanges>
      <Typography variant="h6" component="h2">
        {translate('bo.campaigns.section_rules')}
      </Typography>
      <TextInput source="sysname" validate={required()} helperText="bo.campaigns.sysname_help" />
      <SelectInput source="status" choices={STATUS_CHOICES} validate={required()} />
      <SelectInput source="trigger" choices={TRIGGER_CHOICES} validate={required()} />
      <FormDataConsumer<CampaignValues>>
        {({ formData }) =>
          formData.trigger === 'deposit' ? (
            <NumberInput source="deposit_number" helperText="bo.campaigns.deposit_number_help" step={1} />
          ) : null
        }
      </FormDataConsumer>
      <SelectInput source="reward" choices={REWARD_CHOICES} validate={required()} />
      <FormDataConsumer<CampaignValues>>
        {({ formData }) =>
          PERCENT_REWARDS.includes(formData.reward) ? <NumberInput source="match_percent" step={1} /> : null
        }
      </FormDataConsumer>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput source="freespin_count" step={1} />
        <TextInput source="freespin_game" helperText="bo.campaigns.freespin_game_help" />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput source="wager_multiplier" step={1} />
        <BooleanInput source="wager_includes_deposit" />
      </Box>
      <TextInput source="games" helperText="bo.campaigns.list_help" fullWidth />
      <TextInput source="countries" helperText="bo.campaigns.countries_help" fullWidth />
      <TextInput source="exclude_methods" helperText="bo.campaigns.list_help" fullWidth />
      <TextInput source="promotions" helperText="bo.campaigns.list_help" fullWidth />

      <Typography variant="h6" component="h2">
        {translate('bo.campaigns.section_amounts')}
      </Typography>
      <ArrayInput source="amounts" helperText={amountHelp}>
        <SimpleFormIterator inline disableReordering>
          <SelectInput source="currency" label="bo.fields.currency" choices={CURRENCY_CHOICES} validate={required()} />
          <TextInput source="min_deposit" label="bo.campaign_amount.min_deposit" slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          <TextInput source="max_bonus" label="bo.campaign_amount.max_bonus" slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          <TextInput source="max_bet" label="bo.campaign_amount.max_bet" slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          <TextInput source="max_conversion" label="bo.campaign_amount.max_conversion" slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          <TextInput source="freespin_bet" label="bo.campaign_amount.freespin_bet" slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
        </SimpleFormIterator>
      </ArrayInput>

      <Typography variant="h6" component="h2">
        {translate('bo.campaigns.section_window')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <DateTimeInput source="starts_at" />
        <DateTimeInput source="ends_at" />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput source="claim_days" step={1} />
        <NumberInput source="wager_days" step={1} />
        <NumberInput source="max_takers" step={1} />
      </Box>

      <Typography variant="h6" component="h2">
        {translate('bo.campaigns.section_texts')}
      </Typography>
      <TextInput source="title_en" validate={required()} fullWidth />
      <TextInput source="title_fr" validate={required()} fullWidth />
      <TextInput source="text_en" validate={required()} multiline minRows={2} fullWidth />
      <TextInput source="text_fr" validate={required()} multiline minRows={2} fullWidth />
      <TextInput source="terms_en" multiline minRows={2} fullWidth />
      <TextInput source="terms_fr" multiline minRows={2} fullWidth />
      <TextInput source="image_url" fullWidth />
    </SimpleForm>
  );
}

export function CampaignCreate() {
  return (
    <Create transform={transform} redirect="edit">
      <CampaignForm record={emptyCampaign()} />
    </Create>
  );
}

/** The edit form over the campaign answer, read into the form's values. */
function CampaignEditForm() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const missing = missingKeys(record);
  return (
    <>
      {missing.length > 0 ? (
        <Alert severity="warning" sx={{ m: 2 }} data-testid="campaign-missing">
          {translate('bo.campaigns.missing_fields', { fields: missing.join(', ') })}
        </Alert>
      ) : null}
      <CampaignForm record={{ ...campaignValues(record), id: record.id }} />
    </>
  );
}

function useBackoffice() {
  return useDataProvider<BackofficeDataProvider>();
}

/** Pause, resume and end, as the campaign's status allows (`set_campaign_status`). */
function StatusButtons() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  const status = String(record.status);
  const act = (action: string) => (values: Record<string, unknown>) =>
    dataProvider.admin(`campaigns/${encodeURIComponent(String(record.id))}/${action}`, { reason: values.reason });
  return (
    <>
      {status === 'active' ? (
        <ActionDialogButton label="bo.campaigns.pause" icon={<PauseIcon />} testId="campaign-pause" success="bo.campaigns.status_changed" onSubmit={act('pause')} />
      ) : null}
      {status === 'paused' || status === 'draft' ? (
        <ActionDialogButton label="bo.campaigns.resume" icon={<PlayArrowIcon />} testId="campaign-resume" success="bo.campaigns.status_changed" onSubmit={act('resume')} />
      ) : null}
      {status !== 'ended' ? (
        <ActionDialogButton label="bo.campaigns.end" icon={<StopIcon />} color="error" testId="campaign-end" success="bo.campaigns.status_changed" onSubmit={act('end')} />
      ) : null}
    </>
  );
}

/** `code` as the server accepts it, else the error's translation key. */
export function promoCodeError(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'bo.codes.REQUIRED';
  return isPromoCode(value) ? undefined : 'bo.campaigns.code_invalid';
}

/** `max_uses`: empty (no limit) or a whole number of at least 1. */
export function maxUsesError(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? undefined : 'bo.codes.MIN_VALUE';
}

function NewPromoCodeButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (record?.trigger !== 'promo_code') return null;
  return (
    <ActionDialogButton
      label="bo.promo_codes.create"
      icon={<AddIcon />}
      testId="promo-code-create"
      success="bo.promo_codes.created"
      onSubmit={(values) =>
        dataProvider.admin('promo-codes', {
          code: String(values.code).trim(),
          campaign_id: record.id,
          max_uses: typeof values.max_uses === 'number' ? values.max_uses : null,
        })
      }
      noReason
    >
      <TextInput source="code" label="bo.promo_codes.code" validate={promoCodeError} fullWidth />
      <NumberInput source="max_uses" label="bo.promo_codes.max_uses" validate={maxUsesError} step={1} fullWidth />
    </ActionDialogButton>
  );
}

interface PromoCode {
  code: string;
  status: string;
  max_uses: number | null;
  uses: number;
}

function PromoCodeToggle({ code }: { code: PromoCode }) {
  const dataProvider = useBackoffice();
  const active = code.status === 'active';
  return (
    <ActionDialogButton
      label={active ? 'bo.promo_codes.pause' : 'bo.promo_codes.resume'}
      icon={active ? <PauseIcon /> : <PlayArrowIcon />}
      testId={`promo-code-${active ? 'pause' : 'resume'}-${code.code}`}
      success="bo.promo_codes.status_changed"
      onSubmit={(values) =>
        dataProvider.admin(`promo-codes/${encodeURIComponent(code.code)}/${active ? 'pause' : 'resume'}`, { reason: values.reason })
      }
    />
  );
}

/** The campaign's promo codes (the campaign answer's `promo_codes`). */
function PromoCodes() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const codes = Array.isArray(record.promo_codes) ? (record.promo_codes as PromoCode[]) : [];
  if (record.trigger !== 'promo_code' && codes.length === 0) return null;
  return (
    <Box sx={{ p: 2 }} data-testid="promo-codes">
      <Typography variant="h6" component="h2">
        {translate('bo.promo_codes.title')}
      </Typography>
      {codes.length === 0 ? <Typography>{translate('bo.promo_codes.none')}</Typography> : null}
      {codes.map((code) => (
        <Box key={code.code} sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography component="span" sx={{ fontFamily: 'monospace' }}>
            {code.code}
          </Typography>
          <Typography component="span">{translate(`bo.promo_code_status.${code.status}`, { _: code.status })}</Typography>
          <Typography component="span">
            {translate('bo.promo_codes.uses', { uses: code.uses, max: code.max_uses ?? '∞' })}
          </Typography>
          <PromoCodeToggle code={code} />
        </Box>
      ))}
      <NewPromoCodeButton />
    </Box>
  );
}

export function CampaignEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      transform={transform}
      redirect={false}
      actions={
        <TopToolbar>
          <StatusButtons />
        </TopToolbar>
      }
      aside={<PromoCodes />}
    >
      <CampaignEditForm />
    </Edit>
  );
}
