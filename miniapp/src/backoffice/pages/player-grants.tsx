// What an operator gives a player from the player's page, over the feature admin APIs
// (`/backoffice/api/admin/...`, permission campaigns.manage): a manual campaign's bonus
// (`POST /admin/bonuses`), loyalty points (`POST /admin/loyalty/points`, idempotent on its `key`),
// a cashback (`POST /admin/cashbacks`); and the verification review
// (`POST /admin/players/{id}/verification`).
//
// Each sends exactly the body its handler reads (they refuse unknown fields); each carries the
// operator's reason (a cashback's two descriptions are what the player reads, its reason is for
// the player's file) and a cashback its request id (idempotent on the server).
import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import SavingsIcon from '@mui/icons-material/Savings';
import StarsIcon from '@mui/icons-material/Stars';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { Typography } from '@mui/material';
import {
  DateTimeInput,
  FormDataConsumer,
  NumberInput,
  SelectInput,
  TextInput,
  required,
  useDataProvider,
  useGetList,
  useRecordContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import { CURRENCIES, codePoints, secondsOf } from '../lib/campaigns';
import type { BackofficeDataProvider } from '../lib/data-provider';
import type { FieldValues } from '../lib/http';
import { decimalToMinor } from '../lib/money';
import { PendingRequestIds } from '@/lib/request-id';

function useBackoffice() {
  return useDataProvider<BackofficeDataProvider>();
}

/** Loyalty points an operator may give or take at once (loyalty/admin.rs `adjust`). */
export const MAX_POINTS = 100_000_000;
/** The longest cashback description (cashbacks `MAX_DESCRIPTION`). */
export const MAX_DESCRIPTION = 1000;

/** Whole points, signed, not 0, at most MAX_POINTS either way. */
export function pointsError(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return 'bo.codes.REQUIRED';
  if (typeof value !== 'number' || !Number.isInteger(value) || value === 0 || Math.abs(value) > MAX_POINTS) {
    return 'bo.grants.points_invalid';
  }
  return undefined;
}

/** A cashback's amount: more than 0 with at most the currency's decimals. */
export function cashbackAmountError(value: unknown, values: FieldValues): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'bo.codes.REQUIRED';
  const currency = typeof values.currency === 'string' ? values.currency : '';
  return decimalToMinor(value, currency) === null ? 'bo.codes.INVALID' : undefined;
}

/** A description the player reads: required, at most MAX_DESCRIPTION characters. */
export function descriptionError(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'bo.codes.REQUIRED';
  return codePoints(value) > MAX_DESCRIPTION ? 'bo.codes.MAX_LENGTH' : undefined;
}

/** The validator of the cashback's end as of `now`: a time in the future. */
export function endDateValidator(now: () => number = Date.now) {
  return (value: unknown): string | undefined => {
    const seconds = secondsOf(value);
    if (seconds === null) return 'bo.codes.REQUIRED';
    return seconds * 1000 <= now() ? 'bo.grants.end_in_past' : undefined;
  };
}

const endDateError = endDateValidator();

interface CampaignChoice {
  id: number;
  sysname: string;
  title_en: string;
  trigger: string;
  status: string;
}

/** The campaigns an operator grants by hand: manual ones not ended. */
function ManualCampaignInput() {
  const { data, isPending } = useGetList<CampaignChoice>('campaigns', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'id', order: 'DESC' },
    filter: { trigger: 'manual' },
  });
  const choices = (data ?? [])
    .filter((campaign) => campaign.status !== 'ended')
    .map((campaign) => ({ id: campaign.id, name: `${campaign.title_en} (${campaign.sysname})` }));
  return (
    <SelectInput
      source="campaign_id"
      label="bo.grants.campaign"
      choices={choices}
      isPending={isPending}
      validate={required()}
      translateChoice={false}
      fullWidth
    />
  );
}

export function GrantBonusButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  return (
    <ActionDialogButton
      label="bo.grants.bonus"
      icon={<CardGiftcardIcon />}
      testId="player-grant-bonus"
      success="bo.grants.bonus_done"
      onSubmit={(values) =>
        dataProvider.admin('bonuses', { user_id: record.id, campaign_id: values.campaign_id, reason: values.reason })
      }
    >
      <ManualCampaignInput />
    </ActionDialogButton>
  );
}

const pointsKeys = new PendingRequestIds();

/** What the adjustment does, in words, before the operator confirms it (the sign is easy to miss). */
function PointsSummary({ id }: { id: Identifier }) {
  const translate = useTranslate();
  return <FormDataConsumer>{({ formData }) => <PointsSentence id={id} points={(formData as Record<string, unknown>).points} translate={translate} />}</FormDataConsumer>;
}

function PointsSentence({ id, points, translate }: { id: Identifier; points: unknown; translate: ReturnType<typeof useTranslate> }) {
  if (pointsError(points) !== undefined) return null;
  const value = points as number;
  return (
    <Typography role="status" variant="body2" sx={{ mt: 1, mb: 1 }} data-testid="points-summary">
      {translate(value > 0 ? 'bo.grants.points_give' : 'bo.grants.points_take', { points: Math.abs(value), id })}
    </Typography>
  );
}

export function GrantPointsButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  return (
    <ActionDialogButton
      label="bo.grants.points"
      icon={<StarsIcon />}
      testId="player-grant-points"
      success={(result) => ((result as { written?: boolean }).written === false ? 'bo.grants.points_already' : 'bo.grants.points_done')}
      onSubmit={async (values) => {
        const content = { user_id: record.id, points: values.points as number, reason: String(values.reason) };
        // The same adjustment sent again after a lost answer keeps its key: the server writes it once.
        const result = await dataProvider.admin('loyalty/points', { ...content, key: pointsKeys.idFor(content) });
        pointsKeys.done(content);
        return result;
      }}
    >
      <NumberInput source="points" label="bo.grants.points_field" helperText="bo.grants.points_help" validate={pointsError} step={1} fullWidth />
      <PointsSummary id={record.id} />
    </ActionDialogButton>
  );
}

const CURRENCY_CHOICES = CURRENCIES.map((id) => ({ id, name: id }));

const cashbackIds = new PendingRequestIds();

export function GrantCashbackButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  return (
    <ActionDialogButton
      label="bo.grants.cashback"
      icon={<SavingsIcon />}
      testId="player-grant-cashback"
      success="bo.grants.cashback_done"
      defaultValues={{ currency: String(record.currency ?? 'EUR') }}
      onSubmit={async (values) => {
        const currency = String(values.currency);
        const content = {
          user_id: record.id,
          amount: decimalToMinor(String(values.amount), currency),
          currency,
          description_en: String(values.description_en).trim(),
          description_fr: String(values.description_fr).trim(),
          end_date: secondsOf(values.end_date),
          reason: String(values.reason).trim(),
        };
        // The same grant sent again after a lost answer keeps its id: the server answers the
        // cashback it made instead of promising it twice.
        const result = await dataProvider.admin('cashbacks', { ...content, request_id: cashbackIds.idFor(content) });
        cashbackIds.done(content);
        return result;
      }}
    >
      <TextInput
        source="amount"
        label="bo.fields.amount_major"
        validate={cashbackAmountError}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        fullWidth
      />
      <SelectInput source="currency" label="bo.fields.currency" choices={CURRENCY_CHOICES} validate={required()} fullWidth />
      <TextInput source="description_en" label="bo.grants.description_en" validate={descriptionError} multiline fullWidth />
      <TextInput source="description_fr" label="bo.grants.description_fr" validate={descriptionError} multiline fullWidth />
      <DateTimeInput source="end_date" label="bo.grants.end_date" validate={endDateError} fullWidth />
    </ActionDialogButton>
  );
}

/** The verification states `protection::kyc::STATUSES` (the player list groups `retry` under pending). */
export const KYC_STATUSES = ['none', 'pending', 'verified', 'retry', 'rejected'] as const;
const KYC_CHOICES = KYC_STATUSES.map((id) => ({ id, name: `bo.kyc_status.${id}` }));
const KYC_BLOCK_CHOICES = ['keep', 'on', 'off'].map((id) => ({ id, name: `bo.kyc_block.${id}` }));

/** The verification body: `kyc_block` only when the operator changes it. */
export function verificationBody(values: FieldValues): { status: string; reason: string; kyc_block?: boolean } {
  const body: { status: string; reason: string; kyc_block?: boolean } = {
    status: String(values.status),
    reason: String(values.reason),
  };
  if (values.kyc_block === 'on') body.kyc_block = true;
  if (values.kyc_block === 'off') body.kyc_block = false;
  return body;
}

export function VerificationButton() {
  const record = useRecordContext();
  const dataProvider = useBackoffice();
  if (!record) return null;
  return (
    <ActionDialogButton
      label="bo.verification_review.set"
      icon={<VerifiedUserIcon />}
      testId="player-verification"
      success="bo.verification_review.done"
      defaultValues={{ kyc_block: 'keep' }}
      onSubmit={(values) =>
        dataProvider.admin(`players/${encodeURIComponent(String(record.id))}/verification`, verificationBody(values))
      }
    >
      <SelectInput source="status" label="bo.verification_review.status" choices={KYC_CHOICES} validate={required()} fullWidth />
      <SelectInput source="kyc_block" label="bo.verification_review.kyc_block" choices={KYC_BLOCK_CHOICES} validate={required()} fullWidth />
    </ActionDialogButton>
  );
}
