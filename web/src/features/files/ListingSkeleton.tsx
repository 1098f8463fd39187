import { useTranslation } from '../../i18n/use-translation.ts';
import { ListingHeader } from './ListingHeader.tsx';

const ROWS = 8;

/** Placeholder rows while a folder loads, so the page never flashes blank or shifts (docs/design.md). */
export function ListingSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="table" className="listing" aria-label={t('files.loading')} aria-busy="true">
      <ListingHeader />
      <div role="rowgroup">
        {Array.from({ length: ROWS }, (_, index) => (
          <div
            key={index}
            role="row"
            className="listing__row listing__row--skeleton"
            aria-hidden="true"
          >
            <div className="listing__cell listing__cell--name">
              <span className="skeleton skeleton--icon" />
              <span className="skeleton" style={{ width: `${40 + ((index * 37) % 45)}%` }} />
            </div>
            <div className="listing__cell listing__cell--size">
              <span className="skeleton skeleton--short" />
            </div>
            <div className="listing__cell listing__cell--modified">
              <span className="skeleton skeleton--short" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
