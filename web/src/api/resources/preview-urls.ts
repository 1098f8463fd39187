import { apiUrl } from '../client.ts';
import { encodePath } from '../encode-path.ts';

// Media elements, frames and links cannot send X-Auth: the auth cookie (set at login, SameSite
// Strict) authorises these URLs, so the token never appears in a URL, a log or the history.

/** The file itself: `inline` shows it in the browser, otherwise it is downloaded. */
export function rawUrl(path: string, inline = false): string {
  return apiUrl(`/raw${encodePath(path)}${inline ? '?inline=true' : ''}`);
}

/**
 * The listing's thumbnail. `key` (the modification time) gives a changed image a new URL, so the
 * browser cache never shows an old version.
 */
export function thumbnailUrl(path: string, key: number): string {
  return apiUrl(`/preview/thumb${encodePath(path)}?inline=true&key=${key}`);
}

/**
 * The big image preview (fitted inside 1080 px). The modification time in `key` gives a changed
 * image a new URL, so the browser cache never shows an old version.
 */
export function bigPreviewUrl(path: string, modified: string): string {
  return apiUrl(`/preview/big${encodePath(path)}?key=${encodeURIComponent(modified)}`);
}

/** An office document rendered as PDF by the server (docs/previews.md). */
export function pdfPreviewUrl(path: string, modified: string): string {
  return apiUrl(`/preview/pdf${encodePath(path)}?inline=true&key=${encodeURIComponent(modified)}`);
}

/**
 * A video remuxed by the server to fragmented MP4 (docs/previews.md, "Playback"); `start` seconds
 * restarts it at the keyframe before.
 */
export function playUrl(path: string, start = 0): string {
  return apiUrl(`/preview/play${encodePath(path)}${start > 0 ? `?start=${start}` : ''}`);
}

/** A subtitle file converted to WebVTT by the server. */
export function subtitleUrl(path: string): string {
  return apiUrl(`/subtitle${encodePath(path)}?inline=true`);
}
