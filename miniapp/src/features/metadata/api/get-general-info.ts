import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Locale } from '@/config/locales';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';

/** SPEC §3 "General info"; times are in seconds. */
export interface GeneralInfo {
  analytic: { gtm_id: string | null };
  available_currencies: string[];
  available_locales: string[];
  default_currency: string;
  is_seon_enabled: boolean;
  domain_state: string;
  domain_type: string;
  time_to_force_logout: number;
  is_bonus_isolation_enabled: boolean;
  is_game_history_export_enabled: boolean;
  user_inactivity_cashier_time: number;
  user_inactivity_pp_time: number;
}

export function getGeneralInfo(options?: RequestOptions): Promise<GeneralInfo> {
  return apiGet<GeneralInfo>('metadata.getgeneralinfo', undefined, options);
}

// The answer is localized, so each locale has its own cache entry.
export function generalInfoQueryOptions(locale: Locale) {
  return queryOptions({
    queryKey: ['metadata', 'general-info', locale],
    queryFn: ({ signal }) => getGeneralInfo({ signal }),
  });
}

export function useGeneralInfo() {
  return useQuery(generalInfoQueryOptions(useLocale()));
}
