import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import {
  rowRange,
  rowStart,
  scrollToRow,
  type RowLayout,
  type RowWindow,
} from './listing-layout.ts';

/** Rows rendered beyond each edge of the window, so fast scrolling never shows a blank gap. */
const OVERSCAN_ROWS = 8;

function subscribeToWindow(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  window.addEventListener('resize', onChange);
  return () => {
    window.removeEventListener('scroll', onChange);
    window.removeEventListener('resize', onChange);
  };
}

const windowView = (): RowWindow => ({ scrollY: window.scrollY, height: window.innerHeight });

/**
 * Window-scrolled virtual rows (one height, or per-row offsets): only the rows near the viewport
 * are in the DOM.
 * `onNearEnd` fires when the last row comes into range (the listing then shows 50 more entries).
 * Each row's `start` is its offset from the top of the document.
 */
export function useVirtualRows(rowCount: number, layout: RowLayout, onNearEnd: () => void) {
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

  // A scroll re-renders only when it changes which rows are in range.
  const range = useSyncExternalStore(subscribeToWindow, () => {
    const rows = rowRange(rowCount, layout, scrollMargin, windowView(), OVERSCAN_ROWS);
    return rows ? `${rows.first}:${rows.last}` : '';
  });
  const [first = 0, last = -1] = range ? range.split(':').map(Number) : [];
  const rows: { index: number; start: number }[] = [];
  for (let index = first; index <= last; index++) {
    rows.push({ index, start: scrollMargin + rowStart(layout, index) });
  }

  /** Scrolls the window as little as it takes to show a row (none when it shows already). */
  const scrollToIndex = useCallback(
    (index: number) => {
      const row = Math.max(0, Math.min(index, rowCount - 1));
      const top = scrollToRow(row, layout, scrollMargin, windowView());
      if (top !== null) window.scrollTo({ top });
    },
    [rowCount, layout, scrollMargin],
  );

  const lastIndex = last;
  const latestNearEnd = useRef(onNearEnd);
  useEffect(() => {
    latestNearEnd.current = onNearEnd;
  });
  useEffect(() => {
    if (rowCount > 0 && lastIndex >= rowCount - 1) latestNearEnd.current();
  }, [lastIndex, rowCount]);

  return {
    bodyRef,
    rows,
    scrollMargin,
    scrollToIndex,
    totalSize: rowStart(layout, rowCount),
  };
}
