import { pdfFirstPage, officeToPdf } from './decoders/document.ts';
import { DecodeError } from './decoders/limits.ts';
import { heicImage, rawImage } from './decoders/photo.ts';
import { audioCover, videoPoster } from './decoders/video.ts';
import type { PreviewFamily } from './formats.ts';

/** The picture a decoder made of a file, before sharp sizes it. */
export interface DecodedSource {
  image: Buffer;
  /** EXIF orientation sharp applies (RAW previews carry none of their own). */
  orientation?: number;
  /** Office files: the whole document as PDF (`GET /api/preview/pdf/…`). */
  pdf?: Buffer;
}

/**
 * Runs the decoder of a non-image family on a real path (ScopedFs resolved it and checked the
 * rules). `office` is the caller's to serialise: one LibreOffice at a time.
 */
export async function decodeSource(
  family: Exclude<PreviewFamily, 'image'>,
  real: string,
  signal: AbortSignal,
  /** LibreOffice's wall time (default DECODER_LIMITS.office). */
  officeTimeoutMs?: number,
): Promise<DecodedSource> {
  switch (family) {
    case 'video':
      return { image: await videoPoster(real, signal) };
    case 'audio':
      return { image: await audioCover(real, signal) };
    case 'heic': {
      const photo = await heicImage(real, signal);
      return { image: photo.data, orientation: photo.orientation };
    }
    case 'raw': {
      const photo = await rawImage(real, signal);
      return { image: photo.data, orientation: photo.orientation };
    }
    case 'pdf':
      return { image: await pdfFirstPage(real, signal) };
    case 'office': {
      const rendering = await officeToPdf(real, signal, officeTimeoutMs);
      return { image: rendering.firstPage, pdf: rendering.pdf };
    }
  }
}

export { DecodeError };
