import i18next, { type Resource, type ResourceLanguage } from 'i18next';
// Only the sections the first screens (login, files) cannot do without are in the entry chunk:
// JSON imports are tree-shaken by name. The whole English catalogue is a chunk of its own
// (completeEnglish), fetched at start beside the user's own catalogue and awaited by every part
// of the app that loads on demand (app/load-chunk.ts), so no screen ever shows a key; if it cannot
// be fetched, the first screens still have their words.
import {
  buttons,
  errors,
  files,
  layout,
  login,
  notifications,
  offline,
  refusals,
  sidebar,
} from './locales/en.json';
import { directionOf, normaliseLocale } from './locales.ts';

const ENTRY_STRINGS: ResourceLanguage = {
  buttons,
  errors,
  files,
  layout,
  login,
  notifications,
  offline,
  refusals,
  sidebar,
};

let englishComplete: Promise<void> | undefined;

/**
 * Adds the rest of the English catalogue (the fallback of every language) once; resolves when it
 * is there. Loaded as text (`?raw`), a module of its own, so the entry's named imports above stay
 * small. A failed fetch is tried again on the next call.
 */
export function completeEnglish(): Promise<void> {
  englishComplete ??= import('./locales/en.json?raw').then(
    (module) => {
      const whole = JSON.parse(module.default) as ResourceLanguage;
      i18next.addResourceBundle('en', 'translation', whole, true, false);
    },
    (error: unknown) => {
      englishComplete = undefined;
      throw error;
    },
  );
  return englishComplete;
}

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
  const resources: Resource = { en: { translation: ENTRY_STRINGS } };
  await i18next.init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    // Catalogues are stored under lower-case codes ("pt-br"); without this i18next would look
    // them up as "pt-BR" and every regional locale would show English.
    lowerCaseLng: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await Promise.all([completeEnglish().catch(() => undefined), applyLocale('')]);
}

/**
 * Switches the interface to a user's locale ("" means the browser's), loading its catalogue on
 * demand, and sets lang and dir on <html>.
 */
/** The catalogue a user's language setting ('' = the browser's) gets. */
export function localeFor(userLocale: string): string {
  return userLocale ? resolveLocale(userLocale) : browserLocale();
}

export async function applyLocale(userLocale: string): Promise<void> {
  const locale = localeFor(userLocale);
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
