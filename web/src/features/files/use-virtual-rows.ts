import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Rows rendered beyond each edge of the window, so fast scrolling never shows a blank gap. */
const OVERSCAN_ROWS = 8;

/**
 * Window-scrolled virtual rows of a fixed height: only the rows near the viewport are in the DOM.
 * `onNearEnd` fires when the last row comes into range (the listing then shows 50 more entries).
 */
export function useVirtualRows(rowCount: number, rowHeight: number, onNearEnd: () => void) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  // Where the rows start in the document; anything above them (banner, wrapping breadcrumbs) can
  // move it, so it is measured again whenever the page resizes.
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const measure = () => {
      const top = Math.round(body.getBoundingClientRect().top + window.scrollY);
      setScrollMargin((old) => (old === top ? old : top));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
  });

  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.length > 0 ? rows[rows.length - 1]!.index : -1;
  const latestNearEnd = useRef(onNearEnd);
  useEffect(() => {
    latestNearEnd.current = onNearEnd;
  });
  useEffect(() => {
    if (rowCount > 0 && lastIndex >= rowCount - 1) latestNearEnd.current();
  }, [lastIndex, rowCount]);

  return { bodyRef, virtualizer, rows, scrollMargin, totalSize: virtualizer.getTotalSize() };
}
