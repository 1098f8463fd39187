import { useSyncExternalStore } from 'react';
import type { EditorTheme } from './codemirror-editor.ts';

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

const read = (): EditorTheme =>
  document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';

/** The app's theme (`<html data-theme>`), kept up to date when it changes. */
export function useThemeName(): EditorTheme {
  return useSyncExternalStore(subscribe, read, read);
}
