import * as z from 'zod/mini';

/**
 * Which files get a picture from `GET /api/preview/{thumb|big}/…`, by extension (docs/previews.md).
 * The server picks its decoder by the family; the web app asks for thumbnails of these files only.
 * A server without a family's tool answers 501 and the web app shows the icon.
 */
export const PREVIEW_FAMILIES = [
  'image',
  'heic',
  'raw',
  'video',
  'audio',
  'pdf',
  'office',
] as const;
export type PreviewFamily = (typeof PREVIEW_FAMILIES)[number];

const EXTENSIONS: Record<PreviewFamily, string> = {
  image: 'jpg jpeg jpe jfif png webp tif tiff avif gif svg bmp ico',
  heic: 'heic heif hif',
  raw: 'cr2 cr3 nef arw dng raf orf rw2 pef srw',
  video: 'mp4 m4v mov mkv webm avi 3gp 3g2 mpg mpeg ts mts m2ts wmv flv ogv',
  audio: 'mp3 m4a flac ogg oga opus wma aac wav aiff aif',
  pdf: 'pdf',
  office:
    'doc docx docm dot dotx rtf odt ott fodt xls xlsx xlsm ods ots fods csv ppt pptx pps ppsx odp otp fodp odg',
};

const BY_EXTENSION = new Map<string, PreviewFamily>(
  PREVIEW_FAMILIES.flatMap((family) =>
    EXTENSIONS[family].split(' ').map((extension) => [extension, family] as const),
  ),
);

/** The preview family of a file name, or undefined when no picture is made of it. */
export function previewFamilyOf(name: string): PreviewFamily | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  return BY_EXTENSION.get(name.slice(dot + 1).toLowerCase());
}

/**
 * Reply of `GET /api/preview/info/{path}` (Cabinet's addition, docs/previews.md): what the info
 * dialog shows of a photo, video or audio file beyond name, size and date. Every field is
 * optional: a file without EXIF, or a server without the tool, answers fewer (or none).
 */
export const MediaInfo = z.object({
  /** Camera maker and model (`Canon EOS R5`). */
  camera: z.optional(z.string()),
  lens: z.optional(z.string()),
  /** Exposure as photographers write it: `1/250 s · f/2.8 · ISO 100 · 50 mm`. */
  exposure: z.optional(z.string()),
  /** When the photo was taken, as the camera wrote it (`2026:11:29 06:00:00`, no zone). */
  taken: z.optional(z.string()),
  /** Pixel size of a photo or video. */
  width: z.optional(z.number()),
  height: z.optional(z.number()),
  /** Length of a video or audio file in seconds. */
  durationSeconds: z.optional(z.number()),
  videoCodec: z.optional(z.string()),
  audioCodec: z.optional(z.string()),
  /** Tags of an audio or video file (title, artist, album…), lowercase keys. */
  tags: z.optional(z.record(z.string(), z.string())),
  /**
   * Asked with `?start=<seconds>` for a video: where `GET /api/preview/play/…?start=` of the same
   * seconds really begins (the keyframe at or before them), in seconds from the video's start.
   * The remuxed stream's clock starts at zero there.
   */
  startSeconds: z.optional(z.number()),
});
export type MediaInfo = z.infer<typeof MediaInfo>;
