/**
 * The moment the first screen is on show (a folder's first rows, a file, an error, any other
 * page). Parts of the app the first screen does without (the Jobs panel, the sidebar's quota and
 * sites entries, live folder updates, the dialogs and uploads fetched ahead of use) wait for it,
 * so their chunks do not compete with the first rows for the network and the main thread
 * (`npm run check:bundle` counts every script fetched before the first rows).
 */

/**
 * Should no screen say it is shown (a case missed), the waiting parts load after this anyway. Long
 * on purpose: a short one (3 s) opened the gate before the first rows whenever the listing was
 * slow to answer (a busy server), and the sidebar's parts, the Jobs panel and the preloads then
 * took 25 kB of the first screen's budget (`npm run check:bundle` holds the listing back to catch
 * that).
 */
const FALLBACK_MS = 30_000;

let open: (() => void) | undefined;
let shown: Promise<void> | undefined;

function gate(): Promise<void> {
  shown ??= new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, FALLBACK_MS);
  });
  return shown;
}

/**
 * Runs `then` once the page has painted its next frame: a timer set from an animation frame
 * fires after that frame is drawn. Without animation frames (tests), after a timer alone.
 */
function afterNextPaint(then: () => void): void {
  if (typeof requestAnimationFrame === 'function') {
    requestAnimationFrame(() => setTimeout(then, 0));
  } else {
    setTimeout(then, 0);
  }
}

/**
 * Called by a screen once it shows what the user came for; later calls change nothing. The gate
 * opens after the screen is painted: the parts waiting add scripts and stylesheets to the page,
 * and opened at once (a screen says so from an effect, before the browser paints) they held up
 * the very frame that shows the first rows by ~50 ms.
 */
export function firstScreenShown(): void {
  void gate();
  afterNextPaint(() => open?.());
}

/** Resolves once the first screen is shown. */
export function afterFirstScreen(): Promise<void> {
  return gate();
}
