/** Locale codes offered in the settings; "" means the browser language. */
export const LOCALES = [
  'ar',
  'de',
  'en',
  'es',
  'fr',
  'is',
  'it',
  'ja',
  'ko',
  'nl-be',
  'pl',
  'pt-br',
  'pt',
  'ro',
  'ru',
  'sv-se',
  'zh-cn',
  'zh-tw',
] as const;

/** One of Cabinet's interface locales. */
export type LocaleCode = (typeof LOCALES)[number];

const KNOWN = new Set<string>(LOCALES);

/**
 * Maps a locale as the reference and browsers spell it ("pt_BR", "ptBR", "zh-CN", "zhCN",
 * "zh_TW", "sv_SE", "nl_BE", "en_US", "zh-Hans-CN") to Cabinet's code, "" to "", and anything
 * else to null. A region Cabinet has no catalogue for falls back to the language ("en_US" → "en",
 * "de-AT" → "de"); a language Cabinet has in one region only takes that region ("sv" → "sv-se").
 */
export function toLocaleCode(raw: string): LocaleCode | '' | null {
  const trimmed = raw.trim();
  if (trimmed === '') return '';
  const spaced = trimmed.replace(/_/g, '-').replace(/^([a-z]{2})([A-Z]{2})$/, '$1-$2');
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/.test(spaced)) return null;
  const lower = spaced.toLowerCase();
  if (KNOWN.has(lower)) return lower as LocaleCode;
  const parts = lower.split('-');
  const language = parts[0]!;
  // Traditional script or a region writing it; every other Chinese is Simplified.
  if (language === 'zh') return /-(hant|tw|hk|mo)(-|$)/.test(lower) ? 'zh-tw' : 'zh-cn';
  if (KNOWN.has(language)) return language as LocaleCode;
  const regional = LOCALES.filter((code) => code.startsWith(`${language}-`));
  return regional.length === 1 ? regional[0]! : null;
}
