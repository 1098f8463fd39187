import i18next, { type Resource, type ResourceLanguage } from 'i18next';
import en from './locales/en.json';
import { directionOf, normaliseLocale } from './locales.ts';

/**
 * Catalogues other than English are separate chunks, fetched only when that language is used.
 * English is in the entry chunk because it is the fallback for every missing key.
 */
const loaders = import.meta.glob<ResourceLanguage>(['./locales/*.json', '!./locales/en.json'], {
  import: 'default',
});

function catalogueLoader(locale: string) {
  return loaders[`./locales/${locale}.json`];
}

/** Picks the best catalogue for a wish such as "pt-BR": exact, then the language alone, else English. */
export function resolveLocale(wish: string): string {
  const locale = normaliseLocale(wish);
  if (locale === 'en' || catalogueLoader(locale)) return locale;
  const language = locale.split('-')[0] ?? '';
  if (language === 'en' || catalogueLoader(language)) return language;
  return 'en';
}

/** The browser's preferred catalogue. */
export function browserLocale(): string {
  for (const wish of navigator.languages ?? [navigator.language]) {
    const resolved = resolveLocale(wish);
    if (resolved !== 'en' || wish.toLowerCase().startsWith('en')) return resolved;
  }
  return 'en';
}

/** Starts i18next with English loaded and the page in the browser's language. */
export async function initI18n(): Promise<void> {
  const resources: Resource = { en: { translation: en } };
  await i18next.init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await applyLocale('');
}

/**
 * Switches the interface to a user's locale ("" means the browser's), loading its catalogue on
 * demand, and sets lang and dir on <html>.
 */
export async function applyLocale(userLocale: string): Promise<void> {
  const locale = userLocale ? resolveLocale(userLocale) : browserLocale();
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    const load = catalogueLoader(locale);
    if (load) {
      try {
        i18next.addResourceBundle(locale, 'translation', await load());
      } catch (error) {
        console.warn(`Cabinet: the ${locale} catalogue failed to load`, error);
        return;
      }
    }
  }
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}
