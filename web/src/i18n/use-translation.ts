import i18next, { type TFunction } from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';

/** Bumped whenever strings arrive (the rest of the English catalogue, a language's catalogue). */
let catalogueVersion = 0;

function subscribe(onChange: () => void): () => void {
  const onAdded = () => {
    catalogueVersion += 1;
    onChange();
  };
  i18next.on('languageChanged', onChange);
  i18next.store.on('added', onAdded);
  return () => {
    i18next.off('languageChanged', onChange);
    i18next.store.off('added', onAdded);
  };
}

const snapshot = () => `${i18next.language}\n${catalogueVersion}`;

/**
 * The interface's words for a component: `t` in the current language, and the i18next instance.
 * A language change re-renders every component that uses it and hands it a new `t`, so effects
 * that depend on `t` run again. (What react-i18next's hook did here; i18next is initialised
 * before the app renders, so nothing waits for catalogues.)
 */
export function useTranslation(): { t: TFunction; i18n: typeof i18next } {
  const version = useSyncExternalStore(subscribe, snapshot);
  return useMemo(
    () => ({ t: i18next.getFixedT(version.split('\n')[0] ?? 'en'), i18n: i18next }),
    [version],
  );
}
