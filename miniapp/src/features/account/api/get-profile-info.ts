import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { accountKeys } from './get-account-info';

/** SPEC §3 "Contact". */
export interface Contact {
  type: 'email' | 'phone';
  contact: string;
  is_confirmed: boolean;
  is_subscribed: boolean;
  is_login: boolean;
  phone_country_code?: string;
}

/** SPEC §3 "Profile", with the contacts asked for. */
export interface ProfileInfo {
  first_name: string | null;
  last_name: string | null;
  sex: number | null;
  birth_date: string | null;
  country: string | null;
  country_code: string | null;
  region: string | null;
  home_town: string | null;
  address: string | null;
  postcode: string | null;
  contacts?: Contact[];
}

export function getProfileInfo(options?: RequestOptions): Promise<ProfileInfo> {
  return apiGet<ProfileInfo>('account.getprofileinfo', { fields: 'contacts' }, options);
}

export function profileInfoQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.profile(),
    queryFn: ({ signal }) => getProfileInfo({ signal }),
  });
}

/** The signed-in player's profile; pass `enabled: false` for a guest. */
export function useProfileInfo(enabled: boolean) {
  return useQuery({ ...profileInfoQueryOptions(), enabled });
}
