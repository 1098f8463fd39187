import { ArrowDown, ArrowUp } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { SORT_COLUMNS, type SortColumn, type SortState } from './sorting.ts';

const COLUMN_LABELS: Record<SortColumn, string> = {
  name: 'files.name',
  size: 'files.size',
  modified: 'files.lastModified',
};

const COLUMN_CLASSES: Record<SortColumn, string> = {
  name: 'listing__cell--name',
  size: 'listing__cell--size',
  modified: 'listing__cell--modified',
};

/** The arrow of the sorted column: up for ascending, down for descending. */
export function SortArrow({ ascending }: { ascending: boolean }) {
  const Icon = ascending ? ArrowUp : ArrowDown;
  return <Icon size={16} className="sort-arrow" aria-hidden="true" />;
}

interface ListingHeaderProps {
  /** Absent in the loading skeleton: plain headings without sort buttons. */
  sort?: SortState;
  onSort?: (column: SortColumn) => void;
}

/**
 * Column headings of the list view (sticky while the listing scrolls). Each heading is a button
 * that sorts by its column; aria-sort tells which one is sorted and how.
 */
export function ListingHeader({ sort, onSort }: ListingHeaderProps) {
  const { t } = useTranslation();
  return (
    <div role="rowgroup" className="listing__head">
      <div role="row" className="listing__row listing__row--head" aria-rowindex={1}>
        {SORT_COLUMNS.map((column) => {
          const isSorted = sort?.by === column;
          const direction = sort?.ascending ? 'ascending' : 'descending';
          return (
            <div
              key={column}
              role="columnheader"
              className={`listing__cell ${COLUMN_CLASSES[column]}`}
              aria-sort={isSorted ? direction : undefined}
            >
              {onSort ? (
                <button
                  type="button"
                  className="sort-button"
                  data-sorted={isSorted}
                  onClick={() => onSort(column)}
                >
                  {t(COLUMN_LABELS[column])}
                  {isSorted && <SortArrow ascending={sort.ascending} />}
                </button>
              ) : (
                t(COLUMN_LABELS[column])
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** Sort buttons of the mosaic view, which has no column headings. */
export function SortBar({ sort, onSort }: Required<ListingHeaderProps>) {
  const { t } = useTranslation();
  return (
    <div role="group" className="sort-bar" aria-label={t('files.sortBy')}>
      <span className="sort-bar__label" aria-hidden="true">
        {t('files.sortBy')}
      </span>
      {SORT_COLUMNS.map((column) => {
        const isSorted = sort.by === column;
        return (
          <button
            key={column}
            type="button"
            className="sort-button"
            data-sorted={isSorted}
            aria-pressed={isSorted}
            // The arrow is decorative; the name says which way the sorted column runs.
            aria-label={
              isSorted
                ? `${t(COLUMN_LABELS[column])}, ${t(sort.ascending ? 'files.ascending' : 'files.descending')}`
                : undefined
            }
            onClick={() => onSort(column)}
          >
            {t(COLUMN_LABELS[column])}
            {isSorted && <SortArrow ascending={sort.ascending} />}
          </button>
        );
      })}
    </div>
  );
}
