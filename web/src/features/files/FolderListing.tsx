import { type Resource } from '@cabinet/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { EmptyFolder } from './EmptyFolder.tsx';
import { FilesToolbar } from './FilesToolbar.tsx';
import { ListView } from './ListView.tsx';
import { MosaicView } from './MosaicView.tsx';
import { dropTargetHandlers } from './drop-target.ts';
import { useScreenDrop } from './use-screen-drop.ts';
import { asFolderPath, orderEntries } from './listing-order.ts';
import type { ListingViewProps } from './listing-view-props.ts';
import { hasPerm } from '../../auth/permissions.ts';
import { useEntryActions } from './use-entry-actions.ts';
import { useListingPreferences } from './use-listing-preferences.ts';
import { useListingShortcuts } from './use-listing-shortcuts.ts';
import { UI_LIMITS } from '../../config/ui-limits.ts';
import { firstScreenShown } from '../../app/first-screen.ts';
import { useSharedWithMeQuery } from '../../api/teams/shared-with-me-query.ts';
import { marksOf, withGrant, withMarks } from '../teams/index.ts';

const PAGE = UI_LIMITS.listingPageSize;

/**
 * A folder's entries, folders first, in the user's view (list or mosaic) and sorting, with
 * selection, keyboard navigation and shortcuts, the header toolbar, and drops: desktop files
 * dropped anywhere on the files screen (not onto a folder row) upload into the folder.
 *
 * Entries are shown 50 at a time, 50 more whenever the last shown one comes near the viewport,
 * and only the rows near the viewport are rendered at all.
 */
export function FolderListing({ folder }: { folder: Resource }) {
  const { t } = useTranslation();
  // Inside a shared folder the grant's access narrows what the user may do (docs/teams.md).
  const sessionUser = useCurrentUser();
  const grant = folder.shared?.access;
  const user = useMemo(() => withGrant(sessionUser, grant), [sessionUser, grant]);
  // Entries at the top of the view (team folders, "Shared with me") and inside shared folders
  // are marked; the compact listing carries no marks, so they come from the user's grants.
  const shared = useSharedWithMeQuery({ enabled: folder.path === '/' || !!folder.shared });
  const marks = useMemo(() => (shared.data ? marksOf(shared.data) : undefined), [shared.data]);
  // The folder's first rows (or its empty state) are on screen: what waited for them may load.
  useEffect(() => firstScreenShown(), []);
  const entries = useMemo(
    () => withMarks(orderEntries(folder.items ?? []), marks, folder.shared),
    [folder.items, marks, folder.shared],
  );
  const folderPath = asFolderPath(folder.path);
  const { viewMode, setViewMode, sort, sortBy } = useListingPreferences(folder);
  const [shown, setShown] = useState<number>(PAGE);
  const [focusIndex, setFocusIndexState] = useState(0);
  const selectedItems = useSelectionStore((s) => s.items);
  const selected = useMemo(() => new Set(selectedItems.map((item) => item.path)), [selectedItems]);

  const canMove = hasPerm(user, 'rename');
  const canUpload = hasPerm(user, 'create');
  const dropRules = useMemo(() => ({ canMove, canUpload }), [canMove, canUpload]);
  const listingRef = useRef<HTMLDivElement>(null);
  useScreenDrop(folderPath, canUpload, listingRef);

  const setFocusIndex = useCallback((index: number) => {
    setFocusIndexState(index);
    // Keyboard moves (End, long arrow runs) may go past the shown entries: show up to there.
    setShown((old) => (index < old ? old : Math.ceil((index + 1) / PAGE) * PAGE));
  }, []);
  const total = entries.length;
  const showMore = useCallback(() => {
    setShown((old) => (old < total ? old + PAGE : old));
  }, [total]);

  const actions = useEntryActions({
    entries,
    singleClick: user?.singleClick ?? false,
    canDrag: canMove,
    setFocusIndex,
  });
  useListingShortcuts(folderPath, actions.selectAll);

  // After a reload (delete, rename, upload) the selection keeps only entries that still exist.
  useEffect(() => {
    const { items, setItems } = useSelectionStore.getState();
    if (items.length === 0) return;
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));
    const kept = items.flatMap((item) => byPath.get(item.path) ?? []);
    if (kept.length !== items.length || kept.some((item, i) => item !== items[i])) setItems(kept);
  }, [entries]);

  const viewProps: ListingViewProps = {
    label: t('files.listingOf', { name: folder.name || t('files.home') }),
    entries,
    shown,
    showMore,
    selected,
    // The focused entry may be gone after a reload: the last one takes its place.
    focusIndex: Math.min(focusIndex, Math.max(entries.length - 1, 0)),
    setFocusIndex,
    actions,
    dropRules,
    sort,
    onSort: sortBy,
  };

  return (
    <div
      ref={listingRef}
      className="folder-listing"
      {...dropTargetHandlers(folderPath, { canMove: false, canUpload })}
    >
      <FilesToolbar
        folder={folderPath}
        user={user}
        isShared={!!folder.shared}
        viewMode={viewMode}
        onViewMode={setViewMode}
      />
      {entries.length === 0 ? (
        <EmptyFolder />
      ) : viewMode === 'list' ? (
        <ListView {...viewProps} />
      ) : (
        <MosaicView {...viewProps} />
      )}
    </div>
  );
}
