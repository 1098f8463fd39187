import { DEFAULT_TUS, PageConfig } from '@cabinet/protocol';
import * as z from 'zod/mini';

declare global {
  interface Window {
    /** Page configuration the server embeds in index.html. */
    FileBrowser?: unknown;
  }
}

/** What the Vite dev server and a page without embedded configuration run with. */
const DEV_DEFAULTS: PageConfig = {
  Name: '',
  DisableExternal: false,
  DisableUsedPercentage: false,
  Color: '',
  BaseURL: '',
  Version: 'dev',
  StaticURL: '/static',
  Signup: false,
  NoAuth: false,
  AuthMethod: 'json',
  LogoutPage: '/login',
  LoginPage: true,
  CSS: false,
  ReCaptcha: false,
  Theme: '',
  EnableThumbs: true,
  ResizePreview: true,
  EnableExec: false,
  TusSettings: { ...DEFAULT_TUS },
  HideLoginButton: false,
};

/** Reads window.FileBrowser once; missing or malformed keys fall back to the defaults. */
function readPageConfig(): PageConfig {
  const raw = window.FileBrowser;
  if (raw === undefined) {
    if (!import.meta.env.DEV)
      console.warn('Cabinet: no page configuration embedded; using defaults');
    return DEV_DEFAULTS;
  }
  const parsed = z.partial(PageConfig).safeParse(raw);
  if (!parsed.success) {
    console.warn('Cabinet: the embedded page configuration is malformed; using defaults');
    return DEV_DEFAULTS;
  }
  const defined = Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== undefined),
  );
  return { ...DEV_DEFAULTS, ...defined };
}

/** The page configuration of this page load. It never changes while the page is open. */
export const pageConfig: PageConfig = readPageConfig();

/** The server's base URL without a trailing slash ("" at the root). */
export const baseURL = pageConfig.BaseURL.replace(/\/+$/, '');

/** Whether the login form is used (json method) rather than an automatic login (proxy, noauth). */
export const hasLoginPage = pageConfig.LoginPage;

/** Whether the user can log out from the interface (only the json method has sessions to end). */
export const canLogout = pageConfig.AuthMethod === 'json';
