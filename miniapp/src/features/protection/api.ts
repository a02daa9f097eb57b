import type { Money } from '@/features/account';
import type { DepositLimit } from '@/features/cashier';
import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';

/** What a limit bounds (server `account::limits`). */
export const LIMIT_KINDS = ['deposit', 'loss', 'wager'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** A limit as the server answers it: the cashier's deposit limit with its kind. */
export interface PlayLimit extends DepositLimit {
  kind: LimitKind;
}

export interface Exclusion {
  kind: 'time_out' | 'self_exclusion';
  /** Unix seconds. */
  until: number;
}

export interface RgState {
  exclusion: Exclusion | null;
  reality_check_minutes: number | null;
  reality_check_options: number[];
  time_out_days: number[];
  time_out_max_days: number;
  self_exclusion_days: number[];
}

export interface RealityCheck {
  session_started_at: number;
  session_seconds: number;
  interval_minutes: number | null;
  stakes: Money;
  wins: Money;
  net_result: Money;
}

export interface VerificationStatus {
  status: 'none' | 'pending' | 'verified' | 'retry' | 'rejected';
  comment: string | null;
  can_submit: boolean;
  is_kyc_block_enabled: boolean;
  required_for_withdrawal: boolean;
  provider: string;
}

export interface AccessToken {
  token: string;
  user_id: string;
  /** The sandbox's page to open; null for a provider whose WebSDK loads with the token. */
  url: string | null;
}

export interface ChatIdentity {
  user_id: string;
  email: string | null;
  name: string | null;
  signature: string | null;
}

export interface SupportSettings {
  chat: { provider: string; id: string | null; identity: ChatIdentity | null };
  feedback_by_email: boolean;
  telegram_bot: string | null;
}

export const protectionKeys = {
  all: ['protection'] as const,
  rg: () => [...protectionKeys.all, 'rg'] as const,
  limits: () => [...protectionKeys.all, 'limits'] as const,
  verification: () => [...protectionKeys.all, 'verification'] as const,
  support: (uid: number) => [...protectionKeys.all, 'support', uid] as const,
};

export const getRg = (o?: RequestOptions) => apiGet<RgState>('responsibleGaming.get', undefined, o);
export const getLimits = (o?: RequestOptions) => apiGet<PlayLimit[]>('responsibleGaming.getLimits', undefined, o);
export const setLimit = (kind: LimitKind, period: string, amount: string) =>
  apiPost<1>('responsibleGaming.setLimit', { kind, period, amount }, { textFields: ['kind', 'period', 'amount'] });
export const exclude = (kind: Exclusion['kind'], days: number) =>
  apiPost<Exclusion>('responsibleGaming.exclude', { kind, days, confirm: '1' });
export const setRealityCheck = (minutes: number) => apiPost<1>('responsibleGaming.setRealityCheck', { minutes });
export const getRealityCheck = (o?: RequestOptions) => apiGet<RealityCheck>('responsibleGaming.realityCheck', undefined, o);

export const getVerificationStatus = (o?: RequestOptions) => apiGet<VerificationStatus>('verification.getStatus', undefined, o);
export const getAccessToken = () => apiPost<AccessToken>('verification.getAccessToken');
export const setOnVerification = () => apiPost<1>('account.setUserOnVerification');

export const getSupportSettings = (o?: RequestOptions) => apiGet<SupportSettings>('support.getsettings', undefined, o);
export const sendFeedback = (fields: { email: string; name: string; message: string }) =>
  apiPost<1>('Support.sendFeedback', fields, { textFields: ['email', 'name', 'message'] });
export const storeChatEvent = (provider: string, event: string, data?: Record<string, unknown>) =>
  apiPost<1>('support.storeChatEvent', { provider, event, data: data ? JSON.stringify(data) : undefined });
