import type { Readable } from 'node:stream';
import { streamProcess, type RunResult } from '../../process/run-process.ts';
import { DecodeError } from './limits.ts';
import { probeMedia } from './video.ts';

/** Codecs every current browser plays inside MP4 (docs/previews.md, "Playback"). */
const BROWSER_VIDEO = new Set(['h264', 'vp9', 'av1']);
const BROWSER_AUDIO = new Set(['aac', 'opus', 'mp3', 'flac']);

/** A remux started, or why the file cannot play in a browser. */
export type Remux =
  | { kind: 'stream'; stdout: Readable; result: Promise<RunResult> }
  | { kind: 'unsupported'; reason: string; videoCodec?: string; audioCodec?: string };

/**
 * Limits of a remux: it runs as fast as the client reads (the stream's back-pressure pauses
 * ffmpeg), so the wall time is a film's length, not a decoder's; the output cannot be much
 * larger than the source.
 */
function remuxLimits(sourceBytes: number, signal: AbortSignal) {
  return {
    timeoutMs: 6 * 60 * 60 * 1000,
    memoryBytes: 1024 * 1024 * 1024,
    maxOutputBytes: sourceBytes * 1.1 + 16 * 1024 * 1024,
    signal,
  };
}

/**
 * Remuxes a video whose streams the browser plays (H.264, VP9 or AV1 video; AAC, Opus, MP3 or
 * FLAC audio) from MKV, MOV or another container into fragmented MP4 on the fly, copying the
 * streams (no re-encoding). `start` seconds makes ffmpeg seek to the keyframe before it first,
 * which is how a player seeks into a remux: it asks again from there.
 */
export async function remuxToMp4(
  file: string,
  sourceBytes: number,
  start: number,
  signal: AbortSignal,
): Promise<Remux> {
  const probe = await probeMedia(file, signal);
  const video = probe.videoCodec;
  const audio = probe.audioCodec;
  if (!video || !BROWSER_VIDEO.has(video)) {
    return {
      kind: 'unsupported',
      reason: video
        ? `browsers cannot play ${video} video: download the file to watch it`
        : 'the file has no video stream',
      videoCodec: video,
      audioCodec: audio,
    };
  }
  const playableAudio = audio !== undefined && BROWSER_AUDIO.has(audio);
  const args = ['-nostdin', '-v', 'error'];
  if (start > 0) args.push('-ss', start.toFixed(3));
  args.push('-i', file, '-map', '0:v:0');
  // An audio track browsers cannot decode (AC-3, DTS) is left out rather than failing the video.
  if (playableAudio) args.push('-map', '0:a:0');
  args.push(
    '-sn',
    '-dn',
    '-c',
    'copy',
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    '-f',
    'mp4',
    '-',
  );
  const run = await streamProcess('ffmpeg', args, remuxLimits(sourceBytes, signal));
  if ('stdout' in run) return { kind: 'stream', ...run };
  throw new DecodeError(
    run.kind === 'cancelled' ? 'cancelled' : 'ffmpeg is not installed',
    run.kind === 'cancelled' ? 'cancelled' : 'missing',
  );
}
