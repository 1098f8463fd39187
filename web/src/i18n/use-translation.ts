import i18next, { type TFunction } from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
}

/**
 * The interface's words for a component: `t` in the current language, and the i18next instance.
 * A language change re-renders every component that uses it and hands it a new `t`, so effects
 * that depend on `t` run again. (What react-i18next's hook did here; i18next is initialised
 * before the app renders, so nothing waits for catalogues.)
 */
export function useTranslation(): { t: TFunction; i18n: typeof i18next } {
  const language = useSyncExternalStore(subscribe, () => i18next.language);
  return useMemo(() => ({ t: i18next.getFixedT(language), i18n: i18next }), [language]);
}
