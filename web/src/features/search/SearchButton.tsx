import { Suspense, useEffect, useState } from 'react';
import { Search } from 'lucide-react';
import { lazyComponent } from '../../app/load-chunk.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import './search-button.css';

const SearchOverlay = lazyComponent(
  () => import('./SearchOverlay.tsx'),
  (module) => module.SearchOverlay,
);

/**
 * The header's search control for the folder on screen: a field-like button (an icon on phones)
 * and Ctrl+F open the search overlay, which is loaded on first use.
 */
export function SearchButton({ folder }: { folder: string }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);

  useEffect(() => {
    function handleKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.shiftKey) return;
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'f') return;
      if (useDialogStore.getState().dialog) return;
      event.preventDefault();
      setOpen(true);
    }
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, []);

  return (
    <>
      <button
        type="button"
        className="search-button"
        aria-label={t('search.open')}
        aria-haspopup="dialog"
        title={t('search.openHint')}
        onClick={() => setOpen(true)}
      >
        <Search size={20} aria-hidden="true" />
        <span className="search-button__label" aria-hidden="true">
          {t('search.placeholder')}
        </span>
      </button>
      {isOpen && (
        <Suspense fallback={null}>
          <SearchOverlay folder={folder} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
