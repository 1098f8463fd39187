import type { ResourceItem } from '@cabinet/protocol';
import { memo, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { formatFileSize } from '../../format/file-size.ts';
import { EntryLink } from './EntryLink.tsx';
import { EntryPreview, isVideo } from './EntryPreview.tsx';
import { ModifiedTime } from './ModifiedTime.tsx';
import { dropTargetHandlers, type DropRules } from './drop-target.ts';
import { asFolderPath } from './listing-order.ts';
import type { EntryActions } from './use-entry-actions.ts';
import { useIsCut } from './use-is-cut.ts';
import { VideoDuration } from './VideoDuration.tsx';

/** What a listing view needs to draw one entry. */
export interface EntryViewProps {
  item: ResourceItem;
  index: number;
  isSelected: boolean;
  isFocusable: boolean;
  actions: EntryActions;
  dropRules: DropRules;
}

/** One entry of the list view: icon (or thumbnail) and name, size, last modified. */
export const FileRow = memo(function FileRow(
  props: EntryViewProps & { isLast: boolean; offset: number; height: number },
) {
  const { item, index, isSelected, isFocusable, actions, dropRules, isLast } = props;
  const { i18n } = useTranslation();
  const isCut = useIsCut(item.path);
  const [thumbLoaded, setThumbLoaded] = useState(false);
  const drop = item.isDir ? dropTargetHandlers(asFolderPath(item.path), dropRules) : undefined;
  return (
    <div
      role="row"
      className="listing__row listing__row--entry"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      data-dir={item.isDir}
      data-cut={isCut || undefined}
      data-last={isLast}
      style={{ height: props.height, transform: `translateY(${props.offset}px)` }}
      {...drop}
    >
      <div role="cell" className="listing__cell listing__cell--name">
        <EntryPreview
          item={item}
          size="small"
          onLoad={isVideo(item) ? () => setThumbLoaded(true) : undefined}
        />
        <EntryLink
          item={item}
          index={index}
          isFocusable={isFocusable}
          actions={actions}
          className="listing__link"
        />
        {thumbLoaded && <VideoDuration item={item} className="listing__duration" />}
      </div>
      <div role="cell" className="listing__cell listing__cell--size">
        {item.isDir ? (
          <span aria-hidden="true">—</span>
        ) : (
          <span className="bidi-ltr">{formatFileSize(item.size, i18n.language)}</span>
        )}
      </div>
      <div role="cell" className="listing__cell listing__cell--modified">
        <ModifiedTime modified={item.modified} />
      </div>
    </div>
  );
});
