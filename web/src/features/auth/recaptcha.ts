import { pageConfig } from '../../config/page-config.ts';

/** The part of the reCAPTCHA-compatible widget API the login form uses. */
interface Grecaptcha {
  ready?: (callback: () => void) => void;
  render(container: HTMLElement, parameters: { sitekey: string }): number;
  getResponse(widgetId?: number): string;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | null = null;

/** Loads `<ReCaptchaHost>/recaptcha/api.js?render=explicit` once. */
function loadWidgetScript(): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    const host = (pageConfig.ReCaptchaHost ?? 'https://www.google.com').replace(/\/+$/, '');
    script.src = `${host}/recaptcha/api.js?render=explicit`;
    script.async = true;
    script.onload = () => {
      const api = window.grecaptcha;
      if (!api) reject(new Error('The bot-check script did not start'));
      else if (api.ready) api.ready(() => resolve(api));
      else resolve(api);
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('The bot-check script could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/** A rendered bot-check widget. */
export interface BotCheck {
  /** The widget's answer; "" while unsolved. */
  response(): string;
  reset(): void;
}

/** Renders the widget explicitly into `container` with the configured site key. */
export async function renderBotCheck(container: HTMLElement): Promise<BotCheck> {
  const api = await loadWidgetScript();
  const widgetId = api.render(container, { sitekey: pageConfig.ReCaptchaKey ?? '' });
  return {
    response: () => api.getResponse(widgetId) ?? '',
    reset: () => api.reset(widgetId),
  };
}
