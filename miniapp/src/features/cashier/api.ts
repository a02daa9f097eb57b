import { queryOptions } from '@tanstack/react-query';
import type { Money } from '@/features/account';
import type { BonusesPage } from '@/features/bonuses';
import { getCashbacks, type CashbacksPage } from '@/features/cashbacks';
import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';
import { HISTORY_PAGE_SIZE } from '@/lib/paging';

export interface PaymentMethod {
  sysname: string;
  name: string;
  min: Money;
  max: Money;
  requisites: string[];
}

/** SPEC §3 deposit limit (money as decimal strings). */
export interface DepositLimit {
  /** day, week or month. */
  period: string;
  limit_amount: Money | null;
  available_amount: Money | null;
  can_edit: boolean;
  expired_at: number | null;
  pending_limit_amount?: Money | null;
}

export interface AmountPreset {
  currency: string;
  amount: { value: number }[];
}

export interface DepositSettings {
  currency: string;
  methods: PaymentMethod[];
  amount_presets: AmountPreset[];
  limits: DepositLimit[];
}

export interface WithdrawSettings {
  currency: string;
  methods: PaymentMethod[];
  balance: Money;
  period_limit: Money;
  period_available: Money;
  requirements: { contact_confirmed: boolean; profile_complete: boolean; kyc_required: boolean; kyc_verified: boolean };
}

/** SPEC §3 deposit info; withdrawals share it. */
export interface PaymentInfo {
  id: string;
  type: 'deposit' | 'withdrawal';
  method: string;
  amount: Money;
  status: string;
  requisites: string | null;
  created_at: number;
  updated_at: number;
  domain: string | null;
}

export interface HistoryPage {
  total: number;
  items: PaymentInfo[];
}

export interface Balances {
  balance_main: Money;
  balance_bonus: Money;
  balance_betting_bonus: Money;
  balance_fun: Money;
}

export const cashierKeys = {
  all: ['cashier'] as const,
  deposit: () => [...cashierKeys.all, 'deposit-settings'] as const,
  withdraw: () => [...cashierKeys.all, 'withdraw-settings'] as const,
  history: (tab: string) => [...cashierKeys.all, 'history', tab] as const,
  hasDeposit: (uid: number, balance: string) => [...cashierKeys.all, 'has-deposit', uid, balance] as const,
  info: (id: string) => [...cashierKeys.all, 'info', id] as const,
  balance: () => [...cashierKeys.all, 'balance'] as const,
  limits: () => [...cashierKeys.all, 'limits'] as const,
  banks: (method: string) => [...cashierKeys.all, 'banks', method] as const,
  rates: () => [...cashierKeys.all, 'rates'] as const,
};

export { HISTORY_PAGE_SIZE } from '@/lib/paging';

export const getDepositSettings = (o?: RequestOptions) => apiGet<DepositSettings>('cashier.getdepositsettings', undefined, o);
export const getWithdrawSettings = (o?: RequestOptions) => apiGet<WithdrawSettings>('cashier.getwithdrawsettings', undefined, o);
export const getBalance = (o?: RequestOptions) => apiGet<Balances>('account.getBalance', undefined, o);
export const getDepositLimits = (o?: RequestOptions) => apiGet<DepositLimit[]>('account.getDepositLimit', undefined, o);
export const getPaymentInfo = (id: string, o?: RequestOptions) => apiGet<PaymentInfo>('cashier.getdepositinfo', { id }, o);

export function getHistory(type: 'deposit' | 'withdrawal', offset: number, o?: RequestOptions): Promise<HistoryPage> {
  return apiGet<HistoryPage>('cashier.gethistory', { type, offset, count: HISTORY_PAGE_SIZE }, o);
}

/** The bonuses tab of the history: every bonus of the player, newest first. */
export function getBonusHistory(offset: number, o?: RequestOptions): Promise<BonusesPage> {
  return apiGet<BonusesPage>('cashier.gethistory', { type: 'bonuses', offset, count: HISTORY_PAGE_SIZE }, o);
}

/** The cashbacks tab of the history: every cashback, whatever became of it, newest first. */
export function getCashbackHistory(offset: number, o?: RequestOptions): Promise<CashbacksPage> {
  return getCashbacks({ offset, count: HISTORY_PAGE_SIZE, statuses: ['pending', 'active', 'paid_out', 'removed', 'expired', 'rejected'] }, o);
}

/** The status the server gives a deposit that reached the balance (a provider's `success` outcome). */
const DEPOSIT_SUCCESS = 'success';

/** Whether the player has made a successful deposit: one history entry is enough to know. */
export async function hasDeposit(o?: RequestOptions): Promise<boolean> {
  const page = await apiGet<HistoryPage>('cashier.gethistory', { type: 'deposit', statuses: DEPOSIT_SUCCESS, offset: 0, count: 1 }, o);
  return page.total > 0;
}

/**
 * `balance` is part of the key: a landing deposit first shows as a new balance (the balance
 * refresh reloads the account), and a new key asks the server again.
 */
export function hasDepositQueryOptions(uid: number, balance: string) {
  return queryOptions({
    queryKey: cashierKeys.hasDeposit(uid, balance),
    queryFn: ({ signal }) => hasDeposit({ signal }),
  });
}

/** `campaignOfferId`: an offer's id, `none` for no bonus, or empty to let the server choose. */
export function makeDeposit(method: string, amount: string, requisites: string, campaignOfferId = '') {
  return apiPost<{ id: string; status: string; redirect_url: string }>(
    'cashier.makedeposit',
    { method, amount, requisites, campaign_offer_id: campaignOfferId },
    { textFields: ['method', 'amount', 'requisites', 'campaign_offer_id'] },
  );
}

/** `burnBonuses`: the player agreed to lose the bonuses being wagered (the burn-bonuses confirm). */
export function makeWithdrawal(method: string, amount: string, requisites: string, burnBonuses = false) {
  return apiPost<PaymentInfo>(
    'cashier.makewithdrawal',
    { method, amount, requisites, burn_bonuses: burnBonuses ? 1 : undefined },
    { textFields: ['method', 'amount', 'requisites'] },
  );
}

export function cancelWithdrawal(id: string) {
  return apiPost<1>('cashier.cancelwithdrawal', { id }, { textFields: ['id'] });
}

export function setDepositLimit(period: string, amount: string) {
  return apiPost<1>('account.setDepositLimit', { period, amount }, { textFields: ['period', 'amount'] });
}

/** The method's fields as one requisites string (`name=value` lines), as the server stores them. */
export function requisitesText(values: Readonly<Record<string, string>>, fields: readonly string[]): string {
  return fields
    .map((field) => [field, (values[field] ?? '').trim()] as const)
    .filter(([, value]) => value !== '')
    .map(([field, value]) => `${field}=${value}`)
    .join('\n');
}

/** The presets of the account currency, inside the method's bounds (SPEC §3 amount presets). */
export function presetsFor(presets: readonly AmountPreset[], currency: string, method: PaymentMethod | undefined): number[] {
  const list = presets.find((preset) => preset.currency === currency)?.amount.map((entry) => entry.value) ?? [];
  if (!method) return list;
  const min = Number(method.min.amount);
  const max = Number(method.max.amount);
  return list.filter((value) => value >= min && value <= max);
}

/** Whole major units of a decimal money string (bounds of the `sum` rule). */
export function wholeUnits(amount: string): number {
  return Math.trunc(Number(amount));
}

/** A bank of a method's provider (`cashier.getbanks`), for the player's currency and country. */
export interface Bank {
  id: string;
  name: string;
}

export function getBanks(method: string, options: RequestOptions = {}): Promise<Bank[]> {
  return apiGet('cashier.getbanks', { method }, options);
}

/** Reference rates (`account.getcurrencyrates`): units of each currency for one unit of `base`. */
export interface CurrencyRates {
  base: string;
  rates: { currency: string; rate: string }[];
}

export function getCurrencyRates(options: RequestOptions = {}): Promise<CurrencyRates> {
  return apiGet('account.getcurrencyrates', undefined, options);
}

/** A decimal string as an integer and its power of ten ("0.92" → 92n, 2). */
function decimal(text: string): { value: bigint; scale: number } | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  return { value: BigInt(`${match[1] ?? '0'}${fraction}`), scale: fraction.length };
}

/**
 * `amount` (a 2-decimal string) of `from` in `to` at the reference rates, as a 2-decimal string
 * rounded half up — in integers, never floats; null when a rate is missing. For display only:
 * money itself never changes currency.
 */
export function convertAmount(amount: string, from: string, to: string, rates: CurrencyRates): string | null {
  const rateOf = (currency: string) => (currency === rates.base ? '1' : rates.rates.find((r) => r.currency === currency)?.rate);
  const fromRate = decimal(rateOf(from) ?? '');
  const toRate = decimal(rateOf(to) ?? '');
  const value = decimal(amount);
  if (!fromRate || !toRate || !value || fromRate.value === 0n) return null;
  // cents(to) = amount × 100 × toRate / fromRate, every factor an integer.
  const ten = (n: number) => 10n ** BigInt(n);
  const numerator = value.value * 100n * toRate.value * ten(fromRate.scale);
  const denominator = ten(value.scale) * fromRate.value * ten(toRate.scale);
  const cents = (2n * numerator + denominator) / (2n * denominator);
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${whole.toString()}.${rest}`;
}
