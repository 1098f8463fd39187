import { previewFamilyOf, type ResourceItem } from '@cabinet/protocol';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import './mosaic.css';
import { SortBar } from './ListingHeader.tsx';
import { MosaicTile } from './MosaicTile.tsx';
import { mosaicColumns, tabStopOf } from './listing-layout.ts';
import type { ListingViewProps } from './listing-view-props.ts';
import { useListingKeyboard } from './use-listing-keyboard.ts';
import { usePhoneLayout } from './use-phone-layout.ts';
import { useVirtualRows } from './use-virtual-rows.ts';
import { useThumbPrefetch } from './use-thumb-prefetch.ts';

/**
 * Height of a row of cards plus the gap below it, in px (mosaic.css draws the cards to match). On
 * wide screens images, videos, photos and documents get picture cards; everything else a compact card with the icon
 * beside the name, so a row without pictures is a third as tall and a folder of documents shows
 * three times as many items. Phones show compact cards only.
 */
const PICTURE_ROW_HEIGHT = 196;
const COMPACT_ROW_HEIGHT = 64;
const PHONE_TILE_ROW_HEIGHT = 80;

/** Whether an entry gets a picture card (its thumbnail or a big icon) on wide screens. */
export function hasPictureCard(item: ResourceItem): boolean {
  if (item.type === 'image' || item.type === 'video') return true;
  // HEIC and RAW photos, PDFs and office documents show a page or photo (docs/previews.md).
  const family = previewFamilyOf(item.name);
  return family !== undefined && family !== 'audio' && !item.isDir;
}

/** The row offsets of the mosaic: a row is as tall as its tallest card. */
function mosaicLayout(entries: readonly ResourceItem[], count: number, columns: number): number[] {
  const offsets = [0];
  for (let first = 0; first < count; first += columns) {
    const row = entries.slice(first, Math.min(first + columns, count));
    const height = row.some(hasPictureCard) ? PICTURE_ROW_HEIGHT : COMPACT_ROW_HEIGHT;
    offsets.push(offsets[offsets.length - 1]! + height);
  }
  return offsets;
}

/**
 * The mosaic view: a grid of cards, virtualised by row of cards. The column count follows the
 * listing's width; arrow keys move across and down the grid.
 */
export function MosaicView(props: ListingViewProps) {
  const { entries, shown, selected, focusIndex, actions, dropRules } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const columns = mosaicColumns(width);
  // No card before the width is known (the layout effect above measures it before the first
  // paint): cards laid out in one column only to be laid out again cost the first rows ~50 ms.
  const count = width > 0 ? Math.min(shown, entries.length) : 0;
  const rowCount = Math.ceil(count / columns);
  const isPhone = usePhoneLayout();
  const layout = useMemo(
    () => (isPhone ? PHONE_TILE_ROW_HEIGHT : mosaicLayout(entries, count, columns)),
    [isPhone, entries, count, columns],
  );
  const { bodyRef, rows, scrollMargin, scrollToIndex, totalSize } = useVirtualRows(
    rowCount,
    layout,
    props.showMore,
  );
  const handleKeyDown = useListingKeyboard({
    containerRef,
    count: entries.length,
    shownCount: count,
    columns,
    focusIndex,
    setFocusIndex: props.setFocusIndex,
    scrollToEntry: (index) => scrollToIndex(Math.floor(index / columns)),
    actions,
  });
  const rendered = rows.flatMap((row) => {
    const first = row.index * columns;
    return Array.from({ length: Math.min(columns, count - first) }, (_, i) => first + i);
  });
  const tabStop = tabStopOf(focusIndex, rendered);
  const lastRow = rows[rows.length - 1];
  useThumbPrefetch(entries, lastRow ? Math.min(count, (lastRow.index + 1) * columns) : 0);

  return (
    <>
      <SortBar sort={props.sort} onSort={props.onSort} />
      <div
        ref={containerRef}
        role="grid"
        className="mosaic"
        aria-label={props.label}
        aria-rowcount={Math.ceil(entries.length / columns)}
        aria-colcount={columns}
        aria-multiselectable="true"
        data-columns={columns}
        onKeyDown={handleKeyDown}
      >
        <div ref={bodyRef} role="rowgroup" className="mosaic__body" style={{ height: totalSize }}>
          {rows.map((row) => {
            const first = row.index * columns;
            const items = entries.slice(first, Math.min(first + columns, count));
            return (
              <div
                key={row.index}
                role="row"
                className="mosaic__row"
                aria-rowindex={row.index + 1}
                style={{
                  gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                  transform: `translateY(${row.start - scrollMargin}px)`,
                }}
              >
                {items.map((item, offset) => (
                  <MosaicTile
                    key={item.path}
                    item={item}
                    index={first + offset}
                    column={offset}
                    card={!isPhone && hasPictureCard(item) ? 'picture' : 'compact'}
                    isSelected={selected.has(item.path)}
                    isFocusable={first + offset === tabStop}
                    actions={actions}
                    dropRules={dropRules}
                  />
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
