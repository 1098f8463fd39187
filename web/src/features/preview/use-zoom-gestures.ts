import { useEffect, useRef, useState, type RefObject } from 'react';
import { isPreviewKey } from './use-preview-keys.ts';
import {
  doubleClickZoom,
  INITIAL_ZOOM,
  pinchScale,
  wheelScale,
  ZOOM,
  type ZoomState,
} from './zoom.ts';

interface Point {
  x: number;
  y: number;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Zoom and pan of the image inside `stageRef`: wheel steps of 0.25 between
 * 0.25 and 4, double-click cycling 1, 2, 4, 1, dragging with a mouse or one finger pans, two
 * fingers pinch. Pointer events cover mouse, pen and touch alike; the stage sets
 * `touch-action: none` so the browser leaves pinches to us. The keys +, - and 0 zoom too.
 */
export function useZoomGestures(stageRef: RefObject<HTMLElement | null>): {
  zoom: ZoomState;
  setZoom: (zoom: ZoomState) => void;
} {
  const [zoom, setZoom] = useState<ZoomState>(INITIAL_ZOOM);
  const zoomRef = useRef(zoom);
  useEffect(() => {
    zoomRef.current = zoom;
  }, [zoom]);

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const pointers = new Map<number, Point>();
    let pinch: { distance: number; scale: number } | null = null;
    let moveDisabledUntil = 0;
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;

    const update = (next: ZoomState) => {
      zoomRef.current = next;
      setZoom(next);
    };
    const startPinch = () => {
      const [a, b] = [...pointers.values()];
      pinch = a && b ? { distance: distance(a, b), scale: zoomRef.current.scale } : null;
    };

    // React's onWheel is passive, so the page would scroll as well: listen directly.
    const handleWheel = (event: WheelEvent) => {
      event.preventDefault();
      const scale = wheelScale(zoomRef.current.scale, event.deltaY);
      if (scale !== zoomRef.current.scale) update({ ...zoomRef.current, scale });
    };
    const handleDoubleClick = (event: MouseEvent) => {
      event.preventDefault();
      update(doubleClickZoom(zoomRef.current));
    };
    const handlePointerDown = (event: PointerEvent) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      try {
        // Keeps the drag going when the pointer leaves the stage.
        stage.setPointerCapture(event.pointerId);
      } catch {
        // A pointer the browser no longer tracks (lifted already): nothing to capture.
      }
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) startPinch();
    };
    const handlePointerMove = (event: PointerEvent) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const point = { x: event.clientX, y: event.clientY };
      pointers.set(event.pointerId, point);
      if (pinch && pointers.size >= 2) {
        const [a, b] = [...pointers.values()];
        const scale = pinchScale(pinch.scale, pinch.distance, distance(a!, b!));
        update({ ...zoomRef.current, scale });
        return;
      }
      if (Date.now() < moveDisabledUntil) return;
      const { scale, x, y } = zoomRef.current;
      update({ scale, x: x + point.x - last.x, y: y + point.y - last.y });
    };
    const handlePointerEnd = (event: PointerEvent) => {
      if (!pointers.delete(event.pointerId)) return;
      if (pinch) {
        // The other finger usually lifts a moment later; its last moves must not drag the image.
        pinch = null;
        moveDisabledUntil = Date.now() + ZOOM.moveDisableMs;
      }
      if (pointers.size === 2) startPinch();
    };
    // The image is laid out to fit the stage; after a resize the old offset may push it out of
    // view, so it is re-centred once the resizing settles.
    const handleResize = () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(
        () => update({ ...zoomRef.current, x: 0, y: 0 }),
        ZOOM.resizeDebounceMs,
      );
    };

    // Keyboard zoom, for people who cannot use a wheel or a pinch: + and - step, 0 resets.
    const handleKeyDown = (event: KeyboardEvent) => {
      if (!isPreviewKey(event)) return;
      const { scale } = zoomRef.current;
      if (event.key === '+' || event.key === '=')
        update({ ...zoomRef.current, scale: wheelScale(scale, -1) });
      else if (event.key === '-') update({ ...zoomRef.current, scale: wheelScale(scale, 1) });
      else if (event.key === '0') update(INITIAL_ZOOM);
      else return;
      event.preventDefault();
    };

    stage.addEventListener('wheel', handleWheel, { passive: false });
    stage.addEventListener('dblclick', handleDoubleClick);
    stage.addEventListener('pointerdown', handlePointerDown);
    stage.addEventListener('pointermove', handlePointerMove);
    stage.addEventListener('pointerup', handlePointerEnd);
    stage.addEventListener('pointercancel', handlePointerEnd);
    window.addEventListener('resize', handleResize);
    window.addEventListener('keydown', handleKeyDown);
    return () => {
      window.removeEventListener('keydown', handleKeyDown);
      clearTimeout(resizeTimer);
      stage.removeEventListener('wheel', handleWheel);
      stage.removeEventListener('dblclick', handleDoubleClick);
      stage.removeEventListener('pointerdown', handlePointerDown);
      stage.removeEventListener('pointermove', handlePointerMove);
      stage.removeEventListener('pointerup', handlePointerEnd);
      stage.removeEventListener('pointercancel', handlePointerEnd);
      window.removeEventListener('resize', handleResize);
    };
  }, [stageRef]);

  return { zoom, setZoom };
}
