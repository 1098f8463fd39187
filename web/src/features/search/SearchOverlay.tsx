import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Search, X } from 'lucide-react';
import { Link } from 'react-router';
import { SEARCH_TYPE_SHORTCUTS, type SearchHit } from '@cabinet/protocol';
import { useTranslation } from '../../i18n/use-translation.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { routeFromScopePath } from '../../paths/file-paths.ts';
import { hitEntry, hitParts } from './search-hit.ts';
import { useSearch } from './use-search.ts';
import './search.css';
import { UI_LIMITS } from '../../config/ui-limits.ts';
import { trapTabKey } from '../../components/focus-trap.ts';

/** Results are shown 50 at a time, 50 more when the list is scrolled this close to its end. */
const MORE_WITHIN_PX = 100;

export interface SearchOverlayProps {
  /** The folder searched (scope path, e.g. "/photos/"); results are relative to it. */
  folder: string;
  onClose: () => void;
}

/**
 * The search overlay: Enter submits, typing clears the results, Esc
 * closes; a type shortcut fills the field and searches at once; results 50 at a time, more on scrolling near the end;
 * arrow keys move between the field and the results, Enter or a click opens one.
 */
export function SearchOverlay({ folder, onClose }: SearchOverlayProps) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState<number>(UI_LIMITS.searchPageSize);
  const search = useSearch(folder);
  const visible = search.hits.slice(0, shown);

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const submit = (value = query) => {
    if (value.trim() === '') return;
    setShown(UI_LIMITS.searchPageSize);
    search.run(value);
  };

  const change = (value: string) => {
    setQuery(value);
    if (search.status !== 'idle') search.clear();
  };

  // A shortcut is a whole query: it runs at once, and the field keeps it for refining.
  const applyShortcut = (kind: string) => {
    const value = `type:${kind} `;
    setQuery(value);
    submit(value);
    inputRef.current?.focus();
  };

  const showMoreNearEnd = () => {
    const list = listRef.current;
    if (!list || shown >= search.hits.length) return;
    // From this render's count, not the latest: a burst of scroll events adds one page, not several.
    if (list.scrollHeight - list.scrollTop - list.clientHeight <= MORE_WITHIN_PX) {
      setShown(shown + UI_LIMITS.searchPageSize);
    }
  };

  const results = (): HTMLAnchorElement[] =>
    Array.from(listRef.current?.querySelectorAll<HTMLAnchorElement>('a.search-hit') ?? []);

  const handleFieldKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowDown') return;
    const first = results()[0];
    if (!first) return;
    event.preventDefault();
    first.focus();
  };

  const handleResultKey = (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const links = results();
    const at = links.indexOf(event.currentTarget);
    if (event.key === 'ArrowUp') {
      if (at <= 0) inputRef.current?.focus();
      else links[at - 1]?.focus();
      return;
    }
    const next = links[at + 1];
    if (next) next.focus();
    else if (shown < search.hits.length) setShown((count) => count + UI_LIMITS.searchPageSize);
  };

  const statusText = statusMessage(search.status, search.count, search.error, t);

  return (
    <dialog
      ref={dialogRef}
      className="search-overlay"
      aria-label={t('search.title')}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Keys stay in the overlay: the listing's shortcuts (Delete, F2, Ctrl+A…) must not act behind it.
      onKeyDown={(event) => {
        event.stopPropagation();
        trapTabKey(event);
      }}
    >
      <form
        className="search-overlay__bar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Search className="search-overlay__icon" size={20} aria-hidden="true" />
        <input
          ref={inputRef}
          className="search-overlay__input"
          // Not type="search": Chromium's Esc there clears the field instead of closing the overlay.
          type="text"
          autoFocus
          enterKeyHint="search"
          aria-label={t('search.field')}
          placeholder={t('search.placeholder')}
          value={query}
          onChange={(event) => change(event.target.value)}
          onKeyDown={handleFieldKey}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t('search.close')}
          title={t('search.close')}
          onClick={onClose}
        >
          <X size={20} aria-hidden="true" />
        </button>
      </form>

      {search.status === 'idle' && query.trim() === '' && (
        <div className="search-overlay__types">
          <p className="search-overlay__hint">{t('search.types')}</p>
          <div className="search-overlay__type-list">
            {SEARCH_TYPE_SHORTCUTS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="search-type"
                onClick={() => applyShortcut(kind)}
              >
                <FileIcon entry={{ isDir: false, type: kind, extension: '' }} size={20} />
                {t(`search.type.${kind}`)}
              </button>
            ))}
          </div>
        </div>
      )}
      {search.status === 'idle' && query.trim() !== '' && (
        <p className="search-overlay__hint">{t('search.pressEnter')}</p>
      )}

      <p className="search-overlay__status" role="status">
        {statusText}
      </p>

      {visible.length > 0 && (
        <ul
          ref={listRef}
          className="search-overlay__results"
          aria-label={t('search.results')}
          onScroll={showMoreNearEnd}
        >
          {visible.map((hit) => (
            <li key={`${hit.dir ? 'd' : 'f'}:${hit.path}`}>
              <HitLink folder={folder} hit={hit} onOpen={onClose} onKeyDown={handleResultKey} />
            </li>
          ))}
        </ul>
      )}
    </dialog>
  );
}

function HitLink(props: {
  folder: string;
  hit: SearchHit;
  onOpen: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLAnchorElement>) => void;
}) {
  const { folder, hit } = props;
  const { name, parent } = hitParts(hit.path);
  const base = folder.endsWith('/') ? folder : `${folder}/`;
  return (
    <Link
      className="search-hit"
      to={routeFromScopePath(`${base}${hit.path}`, hit.dir)}
      onClick={props.onOpen}
      onKeyDown={props.onKeyDown}
    >
      <FileIcon entry={hitEntry(hit)} size={20} />
      <span className="search-hit__text">
        <bdi className="search-hit__name">{name}</bdi>
        {parent && <bdi className="search-hit__parent">{parent}</bdi>}
      </span>
    </Link>
  );
}

function statusMessage(
  status: string,
  count: number,
  error: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  switch (status) {
    case 'searching':
      return count > 0 ? t('search.searchingCount', { count }) : t('search.searching');
    case 'done':
      return count === 0 ? t('search.none') : t('search.count', { count });
    case 'error':
      return t('search.failed', { message: error });
    default:
      return '';
  }
}
