import type { Resource } from '@cabinet/protocol';
import { Music } from 'lucide-react';
import { rawUrl, subtitleUrl } from './preview-urls.ts';

/** The file name of a subtitle path, without the folder. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A subtitle track's label and language: "movie.de.srt" → "movie.de.srt" labelled, language "de"
 * (a two- or three-letter segment before the extension is taken as a language code).
 */
export function subtitleTrack(path: string): { label: string; language?: string } {
  const name = baseName(path);
  const language = /\.([a-z]{2,3}(?:-[a-z]{2,4})?)\.[^.]+$/i.exec(name)?.[1];
  return { label: name, language };
}

/** An audio file: the browser's player under a large icon. */
export function AudioViewer({ file }: { file: Resource }) {
  return (
    <div className="media-viewer media-viewer--audio">
      <Music size={96} aria-hidden="true" className="media-viewer__icon" />
      <audio
        className="media-viewer__audio"
        src={rawUrl(file.path, true)}
        controls
        preload="metadata"
      >
        <a href={rawUrl(file.path)}>{file.name}</a>
      </audio>
    </div>
  );
}

/**
 * A video with every subtitle track the server found beside it (`subtitles`), fetched as WebVTT.
 * The first track shows by default; the player's menu switches between them.
 */
export function VideoViewer({ file }: { file: Resource }) {
  return (
    <div className="media-viewer">
      <video
        className="media-viewer__video"
        src={rawUrl(file.path, true)}
        controls
        playsInline
        preload="metadata"
        aria-label={file.name}
      >
        {(file.subtitles ?? []).map((path, index) => {
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
        })}
      </video>
    </div>
  );
}
