import type { Resource } from '@cabinet/protocol';
import { Maximize, Pause, Play, Volume2, VolumeX } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { remuxStart, useMediaInfoQuery } from '../../api/resources/media-info-query.ts';
import { playUrl } from '../../api/resources/preview-urls.ts';
import { formatClock } from '../../format/clock.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { isSeekable, shiftCues } from './remux-timeline.ts';

/** How long the position slider rests before a seek reloads the stream (arrow keys, a drag). */
const SEEK_SETTLE_MS = 300;

/** Where the playing stream starts in the video: asked-for and real (the keyframe before). */
interface Stream {
  start: number;
  base: number;
}

/**
 * A video remuxed by the server (`GET /api/preview/play/…?start=`, docs/previews.md, "Playback"),
 * with its own controls: a fragmented MP4 made on the fly has no length and answers no ranges, so
 * the browser's timeline could neither show the whole video nor seek in it. The slider spans the
 * duration the server read (`GET /api/preview/info`); a seek where the browser cannot go reloads
 * the stream from there (`?start=`), and the position shown is the stream's time plus where it
 * really begins (`info?start=` answers the keyframe). Subtitle cues are moved to match.
 */
export function RemuxVideo({
  file,
  videoRef,
  children,
}: {
  file: Resource;
  videoRef: React.RefObject<HTMLVideoElement | null>;
  /** The `<track>` elements. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { data: info } = useMediaInfoQuery(file.path, file.modified, true);
  const duration = info?.durationSeconds;
  const [stream, setStream] = useState<Stream>({ start: 0, base: 0 });
  const [streamTime, setStreamTime] = useState(0);
  /** Where the user is taking the slider, shown until the stream from there plays. */
  const [pending, setPending] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [muted, setMuted] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const seekAbort = useRef<AbortController | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const resume = useRef(false);
  const cueOffsets = useRef(new WeakMap<TextTrack, number>());
  const position = pending ?? stream.base + streamTime;

  const seek = useCallback(
    async (target: number) => {
      const video = videoRef.current;
      if (!video) return;
      seekAbort.current?.abort();
      const local = target - stream.base;
      if (isSeekable(video.seekable, local)) {
        video.currentTime = local;
        setPending(null);
        return;
      }
      const controller = new AbortController();
      seekAbort.current = controller;
      resume.current = !video.paused;
      let base = target;
      try {
        base = (await remuxStart(file.path, target, controller.signal)).startSeconds ?? target;
      } catch {
        // Without the server's answer the stream is shown as starting where it was asked to.
      }
      if (controller.signal.aborted) return;
      setStream({ start: target, base });
      setStreamTime(0);
      setPending(null);
    },
    [file.path, stream.base, videoRef],
  );

  useEffect(() => () => clearTimeout(settle.current), []);
  useEffect(() => () => seekAbort.current?.abort(), []);

  // A reloaded stream plays on if the video was playing; its subtitles move to its clock.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const offsets = cueOffsets.current;
    shiftCues(video, stream.base, offsets);
    if (resume.current) void video.play().catch(() => undefined);
    // Subtitle files load when their track is first shown: move their cues then.
    const onTrackLoad = () => shiftCues(video, stream.base, offsets);
    const tracks = Array.from(video.querySelectorAll('track'));
    for (const track of tracks) track.addEventListener('load', onTrackLoad);
    return () => {
      for (const track of tracks) track.removeEventListener('load', onTrackLoad);
    };
  }, [stream, videoRef]);

  const moveTo = (target: number) => {
    const clamped = Math.max(0, Math.min(target, duration ?? target));
    setPending(clamped);
    clearTimeout(settle.current);
    settle.current = setTimeout(() => void seek(clamped), SEEK_SETTLE_MS);
  };

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) void video.play().catch(() => undefined);
    else video.pause();
  };

  const toggleMute = () => {
    const video = videoRef.current;
    if (!video) return;
    video.muted = !video.muted;
  };

  const clock = `${formatClock(position)} / ${duration === undefined ? '–:––' : formatClock(duration)}`;
  return (
    <div ref={boxRef} className="media-viewer media-viewer--remux">
      <video
        ref={videoRef}
        className="media-viewer__video"
        src={playUrl(file.path, stream.start)}
        playsInline
        preload="metadata"
        aria-label={file.name}
        data-stream-start={stream.base}
        onClick={togglePlay}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onVolumeChange={(event) => setMuted(event.currentTarget.muted)}
        onTimeUpdate={(event) => setStreamTime(event.currentTarget.currentTime)}
      >
        {children}
      </video>
      <div className="media-controls" dir="ltr">
        <button
          type="button"
          className="icon-button"
          aria-label={playing ? t('preview.pause') : t('preview.play')}
          title={playing ? t('preview.pause') : t('preview.play')}
          onClick={togglePlay}
        >
          {playing ? <Pause size={20} aria-hidden="true" /> : <Play size={20} aria-hidden="true" />}
        </button>
        <span className="media-controls__time" aria-hidden="true">
          {clock}
        </span>
        <input
          type="range"
          className="media-controls__position"
          min={0}
          max={duration ?? 0}
          step={1}
          value={Math.min(position, duration ?? 0)}
          disabled={duration === undefined}
          aria-label={t('preview.position')}
          aria-valuetext={clock}
          onChange={(event) => moveTo(Number(event.currentTarget.value))}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={muted ? t('preview.unmute') : t('preview.mute')}
          title={muted ? t('preview.unmute') : t('preview.mute')}
          onClick={toggleMute}
        >
          {muted ? (
            <VolumeX size={20} aria-hidden="true" />
          ) : (
            <Volume2 size={20} aria-hidden="true" />
          )}
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('preview.fullScreen')}
          title={t('preview.fullScreen')}
          onClick={() => void boxRef.current?.requestFullscreen().catch(() => undefined)}
        >
          <Maximize size={20} aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
