import { previewFamilyOf, type PreviewFamily } from '@cabinet/protocol';

/**
 * Which decoder makes the picture of a file, by extension (docs/previews.md). The list lives in
 * the protocol, so the web app asks for thumbnails of exactly these files. `image` is sharp alone
 * (or the file as it is, for GIF, SVG and the like); every other family runs a Debian tool through
 * the process runner first.
 */
export type { PreviewFamily };

export function familyOf(name: string): PreviewFamily | undefined {
  return previewFamilyOf(name);
}
