import { LOCALES, toLocaleCode } from '@cabinet/protocol';

/** Locale codes offered in the settings, shared with the server. */
export { LOCALES };

const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur']);

/** Writing direction of a locale. */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RTL_LANGUAGES.has(locale.split('-')[0] ?? '') ? 'rtl' : 'ltr';
}

/**
 * Normalises what users and browsers say ("pt_BR", "zh-Hans-CN", "PT-br", the 14-language
 * spellings "ptBR", "zhCN", "sv") to a catalogue file name such as "pt-br"; a language Cabinet
 * does not have comes back lower-cased.
 */
export function normaliseLocale(raw: string): string {
  return toLocaleCode(raw) || raw.trim().toLowerCase();
}
