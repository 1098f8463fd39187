/** Image viewer constants */
export const ZOOM = {
  minScale: 0.25,
  maxScale: 4,
  wheelStep: 0.25,
  /** Scales a double-click steps through, back to the first. */
  doubleClickCycle: [1, 2, 4] as const,
  /** After a pinch, dragging is ignored this long (lifting two fingers one by one would jump). */
  moveDisableMs: 200,
  /** Window resizes are coalesced this long before the image is re-centred. */
  resizeDebounceMs: 100,
} as const;

/** Position and scale of the image: `translate(x, y) scale(scale)`. */
export interface ZoomState {
  scale: number;
  x: number;
  y: number;
}

export const INITIAL_ZOOM: ZoomState = { scale: 1, x: 0, y: 0 };

/** Keeps a scale within 0.25–4. */
export function clampScale(scale: number): number {
  return Math.min(ZOOM.maxScale, Math.max(ZOOM.minScale, scale));
}

/** One wheel notch: up (negative deltaY) zooms in by a step, down zooms out. */
export function wheelScale(scale: number, deltaY: number): number {
  if (deltaY === 0) return scale;
  return clampScale(scale + (deltaY < 0 ? ZOOM.wheelStep : -ZOOM.wheelStep));
}

/**
 * A double-click: 1 → 2 → 4 → 1. Any other scale (after wheel or pinch) goes back to 1, as the
 * last step of the cycle does.
 */
export function doubleClickZoom(state: ZoomState): ZoomState {
  const cycle: readonly number[] = ZOOM.doubleClickCycle;
  const at = cycle.indexOf(state.scale);
  if (at < 0 || at === cycle.length - 1) return INITIAL_ZOOM;
  return { ...state, scale: cycle[at + 1]! };
}

/** The scale of a pinch: the scale at its start times how far the fingers moved apart. */
export function pinchScale(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return startScale;
  return clampScale(startScale * (distance / startDistance));
}

/** The CSS transform of a zoom state. */
export function zoomTransform({ scale, x, y }: ZoomState): string {
  return `translate(${x}px, ${y}px) scale(${scale})`;
}
