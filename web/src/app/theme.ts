import { useBrandingStore } from '../config/branding.ts';

/** The browser's (the system's) dark preference, followed when the branding theme is "". */
const prefersDark = () => window.matchMedia('(prefers-color-scheme: dark)');

function resolve(theme: string): 'light' | 'dark' {
  if (theme === 'dark' || theme === 'light') return theme;
  return prefersDark().matches ? 'dark' : 'light';
}

function apply(): void {
  document.documentElement.dataset.theme = resolve(useBrandingStore.getState().theme);
}

/**
 * Applies the branding theme and keeps it applied: "dark" and "light" select their token sets,
 * "" (the wire value of "system") follows the browser's prefers-color-scheme, live. A theme saved
 * in the global settings applies at once (the branding store changes).
 */
export function applyTheme(): void {
  apply();
  prefersDark().addEventListener('change', apply);
  useBrandingStore.subscribe((state, previous) => {
    if (state.theme !== previous.theme) apply();
  });
}
