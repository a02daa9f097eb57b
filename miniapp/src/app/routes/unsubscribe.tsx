import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageLoader } from '@/components/layout/page-loader';
import { apiPost } from '@/lib/api/client';
import { SystemPageView } from '@/components/layout/system-page-view';

/** /unsubscribe?token=… from a marketing message: stops the messages, then says so. */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'pending' | 'done' | 'failed'>(token ? 'pending' : 'done');

  useEffect(() => {
    if (!token) return;
    let active = true;
    apiPost('account.unsubscribe', { token }, { textFields: ['token'] }).then(
      () => {
        if (active) setState('done');
      },
      (error: unknown) => {
        console.warn('unsubscribe failed', error);
        if (active) setState('failed');
      },
    );
    return () => {
      active = false;
    };
  }, [token]);

  if (state === 'pending') return <PageLoader />;
  return <SystemPageView type={state === 'done' ? 'unsubscribe' : 'notFound'} />;
}
