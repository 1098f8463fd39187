import type { LocaleCode } from '@cabinet/protocol';

/**
 * Names of the locales in their own language, for the language select. Kept apart from locales.ts so the
 * names travel with the settings chunk, not the first page load.
 */
export const LOCALE_NAMES: Record<LocaleCode, string> = {
  ar: 'العربية',
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
  fr: 'Français',
  is: 'Íslenska',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  'nl-be': 'Nederlands (België)',
  pl: 'Polski',
  'pt-br': 'Português (Brasil)',
  pt: 'Português',
  ro: 'Română',
  ru: 'Русский',
  'sv-se': 'Svenska',
  'zh-cn': '中文 (简体)',
  'zh-tw': '中文 (繁體)',
};
