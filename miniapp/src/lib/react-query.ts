import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/client';

const MAX_RETRIES = 2;

// A 4xx answer will not change by asking again; network failures and 5xx may.
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, retry: shouldRetry },
    },
  });
}
