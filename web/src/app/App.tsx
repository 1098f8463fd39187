import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useLayoutEffect, useState } from 'react';
import { Router } from 'react-router';
import { baseURL } from '../config/page-config.ts';
import { appNavigator, historyState, listenToHistory } from './history.ts';
import { queryClient } from './query-client.ts';
import { AppRoutes } from './router.tsx';

/**
 * The application: server-state cache and React Router in history mode under the server's base
 * URL, on the app's own history (app/history.ts). Navigations render as transitions, as with
 * React Router's own routers.
 */
export function App() {
  const [state, setState] = useState(historyState);
  useLayoutEffect(() => listenToHistory((next) => startTransition(() => setState(next))), []);
  return (
    <QueryClientProvider client={queryClient}>
      <Router
        basename={baseURL || '/'}
        location={state.location}
        navigationType={state.action}
        navigator={appNavigator}
      >
        <AppRoutes />
      </Router>
    </QueryClientProvider>
  );
}
