import { pageConfig } from '../config/page-config.ts';

/** Applies the branding theme: "dark" selects the dark token set, anything else the light one. */
export function applyTheme(): void {
  document.documentElement.dataset.theme = pageConfig.Theme === 'dark' ? 'dark' : 'light';
}
