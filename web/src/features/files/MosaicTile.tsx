import { memo, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { formatFileSize } from '../../format/file-size.ts';
import { EntryLink } from './EntryLink.tsx';
import { EntryPreview, isVideo } from './EntryPreview.tsx';
import type { EntryViewProps } from './FileRow.tsx';
import { ModifiedTime } from './ModifiedTime.tsx';
import { dropTargetHandlers } from './drop-target.ts';
import { asFolderPath } from './listing-order.ts';
import { useIsCut } from './use-is-cut.ts';
import { VideoDuration } from './VideoDuration.tsx';

/** One entry of the mosaic view: a card with the thumbnail or icon, name, size and date. */
export const MosaicTile = memo(function MosaicTile(
  props: EntryViewProps & {
    column: number;
    /** A picture card (thumbnail above the name) or a compact one (icon beside it). */
    card: 'picture' | 'compact';
  },
) {
  const { item, index, isSelected, isFocusable, actions, dropRules, column, card } = props;
  const { i18n } = useTranslation();
  const isCut = useIsCut(item.path);
  const [thumbLoaded, setThumbLoaded] = useState(false);
  const drop = item.isDir ? dropTargetHandlers(asFolderPath(item.path), dropRules) : undefined;
  return (
    <div
      role="gridcell"
      className="tile"
      aria-colindex={column + 1}
      aria-selected={isSelected}
      data-dir={item.isDir}
      data-card={card}
      data-cut={isCut || undefined}
      {...drop}
    >
      <div className="tile__preview">
        <EntryPreview
          item={item}
          size={card === 'picture' ? 'large' : 'small'}
          onLoad={isVideo(item) ? () => setThumbLoaded(true) : undefined}
        />
        {thumbLoaded && card === 'picture' && (
          <VideoDuration item={item} className="tile__duration" />
        )}
      </div>
      <div className="tile__text">
        <EntryLink
          item={item}
          index={index}
          isFocusable={isFocusable}
          actions={actions}
          className="tile__name"
        />
        <span className="tile__meta">
          {!item.isDir && (
            <span className="bidi-ltr">{formatFileSize(item.size, i18n.language)}</span>
          )}
          <ModifiedTime modified={item.modified} />
          {/* A compact card's picture is too small to write on: the length joins the details. */}
          {thumbLoaded && card === 'compact' && <VideoDuration item={item} className="" />}
        </span>
      </div>
    </div>
  );
});
