// First: the folder the page opens is asked for as this module is evaluated, before the rest of
// the app's code runs (app/early-folder.ts).
import './app/early-folder.ts';
// Global styles first, so that component styles imported below override them.
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { linkApiToStores } from './app/api-links.ts';
import { App } from './app/App.tsx';
import { queryClient } from './app/query-client.ts';
import { readEarlyListing } from './api/resources/early-listing.ts';
import { readResource, showFirstRows } from './api/resources/resource-query.ts';
import { applyTheme } from './app/theme.ts';
import { followBrandingOfOtherTabs } from './config/branding.ts';
import { warmRowFormatters } from './format/warm-up.ts';
import { restoreSession } from './auth/session.ts';
import { decodeToken } from './auth/token-claims.ts';
import { loadStoredToken } from './auth/token-storage.ts';
import { applyLocale, initI18n, localeFor } from './i18n/i18n.ts';
import { useSessionStore } from './stores/session-store.ts';

/**
 * Boot: the reply of the folder the page opens (asked for by app/early-folder.ts) is read as it
 * arrives, the API client is linked to the stores,
 * then theme and language so nothing flashes, then the stored session is taken up (guards need to
 * know who is logged in; its renewal is awaited only when the token is about to expire or there
 * is no login page), then the app mounts.
 */
async function boot(): Promise<void> {
  readEarlyListing((path, url, response) =>
    readResource(url, response, showFirstRows(queryClient, path)),
  );
  // In the stored session's language, which the rows will most likely format in.
  warmRowFormatters(localeFor(decodeToken(loadStoredToken() ?? '')?.user.locale ?? ''));
  linkApiToStores();
  applyTheme();
  followBrandingOfOtherTabs();
  await initI18n();
  await restoreSession();
  await applyLocale(useSessionStore.getState().user?.locale ?? '');
  // The interface follows the logged-in user's language (login, logout, profile change).
  useSessionStore.subscribe((state, previous) => {
    if (state.user?.locale !== previous.user?.locale) void applyLocale(state.user?.locale ?? '');
  });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
