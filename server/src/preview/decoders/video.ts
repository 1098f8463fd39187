import { runProcess } from '../../process/run-process.ts';
import { DECODED_SIDE, DECODER_LIMITS, DecodeError, outputOf } from './limits.ts';

/** Streams and duration of a media file, from ffprobe. */
export interface MediaProbe {
  durationSeconds?: number;
  videoCodec?: string;
  audioCodec?: string;
  /** Container format names, as ffprobe lists them (`mov,mp4,m4a,3gp,3g2,mj2`). */
  container?: string;
  /** Tags of the container (title, artist, album…), lowercase keys. */
  tags: Record<string, string>;
}

interface FfprobeJson {
  format?: { duration?: string; format_name?: string; tags?: Record<string, string> };
  streams?: { codec_type?: string; codec_name?: string; disposition?: { attached_pic?: number } }[];
}

/** Reads a media file's duration, codecs and tags (ffprobe, within the probe limits). */
export async function probeMedia(file: string, signal?: AbortSignal): Promise<MediaProbe> {
  const result = await runProcess(
    'ffprobe',
    [
      '-v',
      'error',
      '-show_entries',
      'format=duration,format_name:format_tags:stream=codec_type,codec_name:stream_disposition=attached_pic',
      '-of',
      'json',
      '--',
      file,
    ],
    { ...DECODER_LIMITS.probe, signal },
  );
  let parsed: FfprobeJson;
  try {
    parsed = JSON.parse(outputOf('ffprobe', result).toString('utf8')) as FfprobeJson;
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    throw new DecodeError('ffprobe answered no readable JSON', 'failed');
  }
  const duration = Number(parsed.format?.duration);
  const streams = parsed.streams ?? [];
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.format?.tags ?? {})) {
    tags[key.toLowerCase()] = value;
  }
  return {
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : undefined,
    videoCodec: streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic)
      ?.codec_name,
    audioCodec: streams.find((s) => s.codec_type === 'audio')?.codec_name,
    container: parsed.format?.format_name,
    tags,
  };
}

/**
 * A poster frame as PNG: ffprobe's duration, then one frame at 10 % of it (the first frames are
 * often black or a fade-in), picked by ffmpeg's `thumbnail` filter among the next few frames and
 * scaled inside 1080 px. A video too short or without a duration is taken from its start.
 */
export async function videoPoster(file: string, signal?: AbortSignal): Promise<Buffer> {
  const probe = await probeMedia(file, signal);
  if (!probe.videoCodec) throw new DecodeError('the file has no video stream', 'failed');
  const at = probe.durationSeconds ? probe.durationSeconds * 0.1 : 0;
  const frame = (seconds: number) =>
    runProcess(
      'ffmpeg',
      [
        '-nostdin',
        '-v',
        'error',
        '-ss',
        seconds.toFixed(3),
        '-i',
        file,
        '-an',
        '-sn',
        '-dn',
        '-vf',
        `thumbnail=12,scale=w='min(${DECODED_SIDE},iw)':h='min(${DECODED_SIDE},ih)':force_original_aspect_ratio=decrease`,
        '-frames:v',
        '1',
        '-c:v',
        'png',
        '-f',
        'image2pipe',
        '-',
      ],
      { ...DECODER_LIMITS.frame, signal },
    );
  const first = await frame(at);
  // Seeking past the last keyframe of a short or damaged file gives no frame: try the start.
  if (at > 0 && (first.kind === 'failed' || (first.kind === 'ok' && first.stdout.length === 0))) {
    return outputOf('ffmpeg', await frame(0));
  }
  return outputOf('ffmpeg', first);
}

/** The cover art embedded in an audio file (copied as it is: JPEG or PNG). */
export async function audioCover(file: string, signal?: AbortSignal): Promise<Buffer> {
  const result = await runProcess(
    'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-i',
      file,
      '-an',
      '-sn',
      '-dn',
      '-map',
      '0:v:0',
      '-c:v',
      'copy',
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-',
    ],
    { ...DECODER_LIMITS.frame, signal },
  );
  if (result.kind === 'failed') throw new DecodeError('the file has no cover art', 'failed');
  return outputOf('ffmpeg', result);
}

/**
 * Where a remux asked to start at `seconds` really begins: the video keyframe at or before it,
 * found as ffmpeg's `-ss` finds it (ffprobe seeks the same way and reads one packet). A stream
 * copy cannot start between keyframes, and the fragmented MP4 it makes starts its clock at zero,
 * so the web player adds this to the stream's time to show the position in the whole video.
 * Undefined when ffprobe reads no packet there (past the end, a damaged file).
 */
export async function keyframeBefore(
  file: string,
  seconds: number,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const result = await runProcess(
    'ffprobe',
    [
      '-v',
      'error',
      '-read_intervals',
      `${seconds.toFixed(3)}%+#1`,
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time:format=start_time',
      '-of',
      'json',
      '--',
      file,
    ],
    { ...DECODER_LIMITS.probe, signal },
  );
  if (result.kind === 'not-installed') throw new DecodeError('ffprobe is not installed', 'missing');
  if (result.kind !== 'ok') return undefined;
  let parsed: { packets?: { pts_time?: string }[]; format?: { start_time?: string } };
  try {
    parsed = JSON.parse(result.stdout.toString('utf8')) as typeof parsed;
  } catch {
    return undefined;
  }
  const keyframe = Number(parsed.packets?.[0]?.pts_time);
  // Positions count from the container's start, as the duration does.
  const origin = Number(parsed.format?.start_time ?? 0) || 0;
  return Number.isFinite(keyframe) ? Math.max(0, keyframe - origin) : undefined;
}
