import { previewFrameUrl } from '../../api/sites/post-preview.ts';

/**
 * A rendered page of the site in a frame sandboxed with no permissions at all: no scripts, no
 * same origin (so nothing in a post can reach Cabinet's pages or storage), no forms, no popups.
 */
export function PreviewFrame({ url, title }: { url: string; title: string }) {
  return (
    <iframe className="post-preview__frame" src={previewFrameUrl(url)} sandbox="" title={title} />
  );
}
