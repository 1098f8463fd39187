import { useTranslation } from 'react-i18next';

/** Column headings of the list view (sticky while the listing scrolls). */
export function ListingHeader() {
  const { t } = useTranslation();
  return (
    <div role="rowgroup" className="listing__head">
      <div role="row" className="listing__row listing__row--head">
        <div role="columnheader" className="listing__cell listing__cell--name">
          {t('files.name')}
        </div>
        <div role="columnheader" className="listing__cell listing__cell--size">
          {t('files.size')}
        </div>
        <div role="columnheader" className="listing__cell listing__cell--modified">
          {t('files.lastModified')}
        </div>
      </div>
    </div>
  );
}
