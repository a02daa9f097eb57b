import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { installGlobalErrorHandling } from '@/lib/api/error-pages';
import { createQueryClient } from '@/lib/react-query';
import { AppProvider } from './provider';
import { createAppRouter } from './router';
import './telegram.css';

type AppRouter = ReturnType<typeof createAppRouter>;

export interface AppProps {
  queryClient: QueryClient;
  router: AppRouter;
}

/**
 * The query client and the router, created before React renders: the router starts the first
 * page's loaders and lazy chunks at once, and `whenRouterReady` tells when that page can render.
 */
export function createApp(): AppProps {
  const queryClient = createQueryClient();
  return { queryClient, router: createAppRouter(queryClient) };
}

/**
 * Resolves once the router has run the first navigation's loaders and loaded its lazy routes
 * (issue 23: React's first render replaces the app shell of index.html with the page itself,
 * not with a loading screen in between).
 */
export function whenRouterReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

export function App({ queryClient, router }: AppProps) {
  useEffect(() => installGlobalErrorHandling(), []);

  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
