import { runProcess, withTempDir } from '../../process/run-process.ts';
import { DECODER_LIMITS, DecodeError, outputOf } from './limits.ts';

/** A decoded photo and the EXIF orientation sharp must still apply (1 = as stored). */
export interface DecodedPhoto {
  data: Buffer;
  orientation: number;
}

/** HEIC/HEIF (phones): heif-convert writes a JPEG (its own rotation applied) read back here. */
export async function heicImage(file: string, signal?: AbortSignal): Promise<DecodedPhoto> {
  return withTempDir(async (dir) => {
    const result = await runProcess('heif-convert', ['-q', '90', file, `${dir.path}/out.jpg`], {
      ...DECODER_LIMITS.image,
      signal,
    });
    outputOrEmpty('heif-convert', result);
    // heif-convert names the primary image out.jpg (older versions add -1 with several images).
    const data =
      (await dir.read('out.jpg', DECODER_LIMITS.image.maxOutputBytes)) ??
      (await dir.read('out-1.jpg', DECODER_LIMITS.image.maxOutputBytes));
    if (!data) throw new DecodeError('heif-convert made no picture', 'failed');
    return { data, orientation: 1 };
  });
}

/**
 * A camera RAW's embedded preview (exiftool: the largest of JpgFromRaw, PreviewImage and the
 * EXIF thumbnail), with the RAW's own orientation; without one, a half-size demosaic by
 * `dcraw_emu`. Either tool alone is enough.
 */
export async function rawImage(file: string, signal?: AbortSignal): Promise<DecodedPhoto> {
  let orientation = 1;
  const tags = await runProcess('exiftool', ['-j', '-n', '-Orientation', '--', file], {
    ...DECODER_LIMITS.probe,
    signal,
  });
  if (tags.kind === 'cancelled') throw new DecodeError('cancelled', 'cancelled');
  if (tags.kind === 'ok') {
    try {
      const [first] = JSON.parse(tags.stdout.toString('utf8')) as { Orientation?: number }[];
      if (first?.Orientation && first.Orientation >= 1 && first.Orientation <= 8) {
        orientation = first.Orientation;
      }
    } catch {
      // No orientation: the preview is shown as stored.
    }
    for (const tag of ['-JpgFromRaw', '-PreviewImage', '-ThumbnailImage']) {
      const result = await runProcess('exiftool', ['-b', tag, '--', file], {
        ...DECODER_LIMITS.image,
        signal,
      });
      if (result.kind === 'cancelled') throw new DecodeError('cancelled', 'cancelled');
      if (result.kind === 'ok' && result.stdout.length > 0)
        return { data: result.stdout, orientation };
    }
  }
  // dcraw_emu writes a TIFF to stdout with `-Z -`, half size, rotated by the RAW's flip already.
  const result = await runProcess('dcraw_emu', ['-h', '-T', '-Z', '-', file], {
    ...DECODER_LIMITS.image,
    signal,
  });
  if (result.kind === 'not-installed' && tags.kind === 'not-installed') {
    throw new DecodeError('neither exiftool nor dcraw_emu is installed', 'missing');
  }
  return { data: outputOf('dcraw_emu', result), orientation: 1 };
}

function outputOrEmpty(tool: string, result: Awaited<ReturnType<typeof runProcess>>): void {
  if (result.kind === 'ok') return;
  outputOf(tool, result);
}
