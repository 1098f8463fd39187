import { access } from 'node:fs/promises';
import path from 'node:path';
import type { PageConfig, Settings } from '@cabinet/protocol';
import type { ServerConfig } from '../config/options.ts';
import { VERSION } from '../config/version.ts';
import { isRecaptchaEnabled } from '../services/sign-in/recaptcha.ts';
import { isOidcEnabled, oidcButtonLabel } from '../services/sign-in/oidc.ts';

/** The name shown when branding leaves it empty. */
export const DEFAULT_NAME = 'Cabinet';

/** True when the branding folder holds the file (custom.css, img/logo.svg). */
async function hasBrandingFile(settings: Settings, file: string): Promise<boolean> {
  const dir = settings.branding.files;
  if (!dir) return false;
  return access(path.join(dir, file)).then(
    () => true,
    () => false,
  );
}

/** True when the branding folder holds a custom.css the page should link. */
export function hasCustomCss(settings: Settings): Promise<boolean> {
  return hasBrandingFile(settings, 'custom.css');
}

/**
 * The page configuration embedded in index.html as window.FileBrowser, so
 * that the web app boots without another request. Secrets never appear here: only the bot-check
 * site key, and only when the bot-check is on.
 */
export async function buildPageConfig(
  config: ServerConfig,
  settings: Settings,
): Promise<PageConfig> {
  const method = config.authMethod;
  const recaptcha = method === 'json' && isRecaptchaEnabled(config);
  return {
    Name: settings.branding.name || DEFAULT_NAME,
    DisableExternal: settings.branding.disableExternal,
    DisableUsedPercentage: settings.branding.disableUsedPercentage,
    Color: settings.branding.color,
    BaseURL: config.baseURL,
    Version: VERSION,
    StaticURL: `${config.baseURL}/static`,
    Signup: settings.signup,
    NoAuth: method === 'noauth',
    AuthMethod: method,
    LogoutPage: '/login',
    LoginPage: method === 'json',
    CSS: await hasCustomCss(settings),
    CustomLogo: await hasBrandingFile(settings, 'img/logo.svg'),
    ReCaptcha: recaptcha,
    ...(recaptcha && { ReCaptchaHost: config.recaptchaHost, ReCaptchaKey: config.recaptchaKey }),
    Theme: settings.branding.theme,
    EnableThumbs: config.enableThumbs,
    ResizePreview: config.resizePreview,
    EnableExec: config.enableExec,
    TusSettings: { ...settings.tus },
    HideLoginButton: settings.hideLoginButton,
    ...(method === 'json' && isOidcEnabled(config) && { OidcProvider: oidcButtonLabel(config) }),
  };
}
