import type { ResourceItem } from '@cabinet/protocol';
import type { DropRules } from './drop-target.ts';
import type { SortColumn, SortState } from './sorting.ts';
import type { EntryActions } from './use-entry-actions.ts';

/** What FolderListing hands to the list and mosaic views. */
export interface ListingViewProps {
  /** Accessible name of the listing ("Contents of …"). */
  label: string;
  /** Every entry, folders first. */
  entries: ResourceItem[];
  /** How many entries are shown so far (50, then 50 more at the bottom). */
  shown: number;
  showMore(): void;
  /** Paths of the selected entries. */
  selected: ReadonlySet<string>;
  /** The entry that holds the listing's tab stop. */
  focusIndex: number;
  setFocusIndex(index: number): void;
  actions: EntryActions;
  dropRules: DropRules;
  sort: SortState;
  onSort(column: SortColumn): void;
}
