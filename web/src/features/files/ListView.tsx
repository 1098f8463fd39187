import { useRef } from 'react';
import { FileRow } from './FileRow.tsx';
import { ListingHeader } from './ListingHeader.tsx';
import { tabStopOf } from './listing-layout.ts';
import type { ListingViewProps } from './listing-view-props.ts';
import { useListingKeyboard } from './use-listing-keyboard.ts';
import { usePhoneLayout } from './use-phone-layout.ts';
import { useVirtualRows } from './use-virtual-rows.ts';

/** Row heights in px: one line on wide screens, name over size and date on phones. */
const ROW_HEIGHT = 40;
const PHONE_ROW_HEIGHT = 56;

/**
 * The list view: a grid (so rows can be announced as selected) with sortable column headings and
 * one virtual row per entry. Only rows near the viewport are in the DOM; aria-rowcount and
 * aria-rowindex give assistive technology the full size and each row's place.
 */
export function ListView(props: ListingViewProps) {
  const { entries, shown, selected, focusIndex, actions, dropRules } = props;
  const rowHeight = usePhoneLayout() ? PHONE_ROW_HEIGHT : ROW_HEIGHT;
  const count = Math.min(shown, entries.length);
  const { bodyRef, rows, scrollMargin, scrollToIndex, totalSize } = useVirtualRows(
    count,
    rowHeight,
    props.showMore,
  );
  const containerRef = useRef<HTMLDivElement>(null);
  const handleKeyDown = useListingKeyboard({
    containerRef,
    count: entries.length,
    shownCount: count,
    columns: 1,
    focusIndex,
    setFocusIndex: props.setFocusIndex,
    scrollToEntry: scrollToIndex,
    actions,
  });
  const tabStop = tabStopOf(
    focusIndex,
    rows.map((row) => row.index),
  );

  return (
    <div
      ref={containerRef}
      role="grid"
      className="listing"
      aria-label={props.label}
      aria-multiselectable="true"
      aria-rowcount={entries.length + 1}
      onKeyDown={handleKeyDown}
    >
      <ListingHeader sort={props.sort} onSort={props.onSort} />
      <div ref={bodyRef} role="rowgroup" className="listing__body" style={{ height: totalSize }}>
        {rows.map((row) => {
          const item = entries[row.index]!;
          return (
            <FileRow
              key={item.path}
              item={item}
              index={row.index}
              isSelected={selected.has(item.path)}
              isFocusable={row.index === tabStop}
              isLast={row.index === entries.length - 1}
              actions={actions}
              dropRules={dropRules}
              height={rowHeight}
              offset={row.start - scrollMargin}
            />
          );
        })}
      </div>
    </div>
  );
}
