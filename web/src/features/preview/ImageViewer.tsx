import type { Resource } from '@cabinet/protocol';
import { useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { FileFallback } from './FileFallback.tsx';
import { hasBigPreviews } from './image-source.ts';
import { bigPreviewUrl, rawUrl } from '../../api/resources/preview-urls.ts';
import { useZoomGestures } from './use-zoom-gestures.ts';
import { zoomTransform } from './zoom.ts';

/**
 * An image, zoomable and draggable. `<img>` never runs script, so an SVG with script is shown
 * safely (and its raw URL carries a sandbox policy should someone open it directly). The big
 * preview is shown unless `isFullSize`; an image the server cannot resize falls back to the
 * original, and one the browser cannot show at all to the download card.
 */
export function ImageViewer({ file, isFullSize }: { file: Resource; isFullSize: boolean }) {
  const { t } = useTranslation();
  const stageRef = useRef<HTMLDivElement>(null);
  const { zoom } = useZoomGestures(stageRef);
  const [failed, setFailed] = useState<string[]>([]);
  const big = bigPreviewUrl(file.path, file.modified);
  const full = rawUrl(file.path, true);
  const wanted = hasBigPreviews && !isFullSize ? big : full;
  const src = failed.includes(wanted) ? (failed.includes(full) ? null : full) : wanted;
  const [loaded, setLoaded] = useState<string | null>(null);

  if (src === null) return <FileFallback file={file} reason={t('preview.imageFailed')} />;
  return (
    <div ref={stageRef} className="image-viewer" data-zoom={zoom.scale}>
      {loaded !== src && (
        <div className="preview-spinner" role="status" aria-label={t('files.loading')} />
      )}
      <img
        key={src}
        className="image-viewer__image"
        src={src}
        alt={file.name}
        draggable={false}
        style={{ transform: zoomTransform(zoom) }}
        onLoad={() => setLoaded(src)}
        onError={() => setFailed((list) => [...list, src])}
      />
    </div>
  );
}
