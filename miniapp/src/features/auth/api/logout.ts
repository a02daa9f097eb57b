import { apiGet } from '@/lib/api/client';

export function logout(): Promise<1> {
  return apiGet<1>('auth.logout');
}
