import type { Resource } from '@cabinet/protocol';
import { Music } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { FileFallback } from './FileFallback.tsx';
import { rawUrl, subtitleUrl } from '../../api/resources/preview-urls.ts';
import { RemuxVideo } from './RemuxVideo.tsx';
import { subtitleTrack } from './subtitle-track.ts';

/**
 * A file the browser cannot play (a codec it lacks, a damaged file) is offered for download
 * instead of leaving a dead player on screen.
 */
function usePlaybackFailure<Media extends HTMLMediaElement>(file: Resource) {
  const { t } = useTranslation();
  const [hasFailed, setFailed] = useState(false);
  const ref = useRef<Media | null>(null);
  useEffect(() => {
    const media = ref.current;
    if (!media) return;
    // Listened to directly: the error can come before React's handler is attached, so an
    // error already recorded on the element counts too.
    const handleError = () => setFailed(true);
    media.addEventListener('error', handleError);
    if (media.error) setFailed(true);
    return () => media.removeEventListener('error', handleError);
  }, []);
  const fallback = hasFailed ? (
    <FileFallback file={file} reason={t('preview.mediaFailed')} />
  ) : null;
  return { fallback, ref };
}

/** An audio file: the browser's player under a large icon. */
export function AudioViewer({ file }: { file: Resource }) {
  const { fallback, ref } = usePlaybackFailure<HTMLAudioElement>(file);
  if (fallback) return fallback;
  return (
    <div className="media-viewer media-viewer--audio">
      <Music size={96} aria-hidden="true" className="media-viewer__icon" />
      <audio
        ref={ref}
        className="media-viewer__audio"
        src={rawUrl(file.path, true)}
        controls
        preload="metadata"
        aria-label={file.name}
      />
    </div>
  );
}

/**
 * A video with every subtitle track the server found beside it (`subtitles`), fetched as WebVTT.
 * The first track shows by default; the player's menu switches between them.
 */
export function VideoViewer({ file }: { file: Resource }) {
  // MKV plays through the server's remux to MP4 from the start; another container the browser
  // fails on (a MOV, an AVI) gets one more try through it (docs/previews.md, "Playback"). A
  // codec the browser cannot decode fails there too, and the download is offered.
  const [remux, setRemux] = useState(() => /\.mkv$/i.test(file.name));
  return (
    <VideoPlayer
      key={remux ? 'remux' : 'raw'}
      file={file}
      remux={remux}
      onFailed={remux ? undefined : () => setRemux(true)}
    />
  );
}

function VideoPlayer({
  file,
  remux,
  onFailed,
}: {
  file: Resource;
  /** Played through the server's remux, with Cabinet's own controls (RemuxVideo). */
  remux: boolean;
  onFailed?: () => void;
}) {
  const { fallback, ref } = usePlaybackFailure<HTMLVideoElement>(file);
  useEffect(() => {
    if (fallback && onFailed) onFailed();
  }, [fallback, onFailed]);
  if (fallback) return onFailed ? null : fallback;
  const tracks = (file.subtitles ?? []).map((path, index) => {
    const { label, language } = subtitleTrack(path);
    return (
      <track
        key={path}
        kind="subtitles"
        src={subtitleUrl(path)}
        label={label}
        srcLang={language}
        default={index === 0}
      />
    );
  });
  if (remux) {
    return (
      <RemuxVideo file={file} videoRef={ref}>
        {tracks}
      </RemuxVideo>
    );
  }
  return (
    <div className="media-viewer">
      <video
        ref={ref}
        className="media-viewer__video"
        src={rawUrl(file.path, true)}
        controls
        playsInline
        preload="metadata"
        aria-label={file.name}
      >
        {tracks}
      </video>
    </div>
  );
}
