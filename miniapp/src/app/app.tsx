import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { installGlobalErrorHandling } from '@/lib/api/error-pages';
import { createQueryClient } from '@/lib/react-query';
import { AppProvider } from './provider';
import { createAppRouter } from './router';
import './telegram.css';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));

  useEffect(() => installGlobalErrorHandling(), []);

  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
