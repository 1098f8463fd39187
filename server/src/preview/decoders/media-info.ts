import type { MediaInfo } from '@cabinet/protocol';
import { runProcess } from '../../process/run-process.ts';
import { DECODER_LIMITS, DecodeError } from './limits.ts';
import { probeMedia } from './video.ts';

interface ExifJson {
  Make?: string;
  Model?: string;
  LensModel?: string;
  Lens?: string;
  ExposureTime?: number;
  FNumber?: number;
  ISO?: number;
  FocalLength?: number;
  DateTimeOriginal?: string;
  CreateDate?: string;
  ImageWidth?: number;
  ImageHeight?: number;
}

const EXIF_TAGS = [
  'Make',
  'Model',
  'LensModel',
  'Lens',
  'ExposureTime',
  'FNumber',
  'ISO',
  'FocalLength',
  'DateTimeOriginal',
  'CreateDate',
  'ImageWidth',
  'ImageHeight',
];

/** Camera, lens, exposure and date taken of a photo (exiftool, numbers unformatted). */
export async function photoInfo(file: string, signal?: AbortSignal): Promise<MediaInfo> {
  const result = await runProcess(
    'exiftool',
    ['-j', '-n', ...EXIF_TAGS.map((tag) => `-${tag}`), '--', file],
    { ...DECODER_LIMITS.probe, signal },
  );
  if (result.kind === 'not-installed')
    throw new DecodeError('exiftool is not installed', 'missing');
  if (result.kind !== 'ok') return {};
  let exif: ExifJson;
  try {
    [exif = {}] = JSON.parse(result.stdout.toString('utf8')) as ExifJson[];
  } catch {
    return {};
  }
  const info: MediaInfo = {};
  const make = exif.Make?.trim();
  const model = exif.Model?.trim();
  // Models often repeat the maker ("Canon" + "Canon EOS R5").
  const camera = model && make && !model.startsWith(make) ? `${make} ${model}` : (model ?? make);
  if (camera) info.camera = camera;
  const lens = (exif.LensModel ?? exif.Lens)?.toString().trim();
  if (lens) info.lens = lens;
  const exposure = [
    exif.ExposureTime ? `${shutter(exif.ExposureTime)} s` : undefined,
    exif.FNumber ? `f/${round(exif.FNumber)}` : undefined,
    exif.ISO ? `ISO ${exif.ISO}` : undefined,
    exif.FocalLength ? `${round(exif.FocalLength)} mm` : undefined,
  ].filter(Boolean);
  if (exposure.length > 0) info.exposure = exposure.join(' · ');
  const taken = exif.DateTimeOriginal ?? exif.CreateDate;
  if (taken) info.taken = String(taken);
  if (exif.ImageWidth && exif.ImageHeight) {
    info.width = exif.ImageWidth;
    info.height = exif.ImageHeight;
  }
  return info;
}

/** Duration, codecs and tags of a video or audio file (ffprobe). */
export async function avInfo(file: string, signal?: AbortSignal): Promise<MediaInfo> {
  const probe = await probeMedia(file, signal);
  const info: MediaInfo = {};
  if (probe.durationSeconds !== undefined) info.durationSeconds = probe.durationSeconds;
  if (probe.videoCodec) info.videoCodec = probe.videoCodec;
  if (probe.audioCodec) info.audioCodec = probe.audioCodec;
  if (Object.keys(probe.tags).length > 0) info.tags = probe.tags;
  return info;
}

/** 1/250 for short exposures, seconds with one decimal for long ones. */
function shutter(seconds: number): string {
  if (seconds >= 0.5) return String(round(seconds));
  return `1/${Math.round(1 / seconds)}`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
