import type SharpModule from 'sharp';
import type { Sharp } from 'sharp';
import { errors } from '../errors.ts';

let loadedSharp: Promise<typeof SharpModule> | undefined;

/**
 * sharp and libvips (~30 MiB resident) are loaded with the first listing or preview
 * (prepareConverter), not at start-up: many instances never convert an image.
 */
function loadSharp(): Promise<typeof SharpModule> {
  loadedSharp ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache holds decoded images between calls; every preview is a different
    // image, so it only costs memory.
    sharp.cache(false);
    // One libvips thread per pipeline (PreviewService runs a pipeline per core at most). sharp
    // picks 1 itself on glibc, but not when MALLOC_ARENA_MAX is set, and there a thread per core
    // per pipeline only added resident memory (docs/previews.md, "Figures").
    sharp.concurrency(1);
    return sharp;
  });
  return loadedSharp;
}

/**
 * Starts loading sharp (PreviewService.prepare: a folder is being listed, thumbnails follow);
 * resolves once it is loaded.
 */
export async function prepareConverter(): Promise<void> {
  await loadSharp();
}

/** The two preview sizes */
export type PreviewSize = 'thumb' | 'big';

/** Longest side accepted (filebrowser d00b3ea8): bigger images answer 413 before decoding. */
export const MAX_SIDE = 10_000;
/** Pixel budget handed to libvips as well, so no decoder allocates past it. */
export const MAX_PIXELS = MAX_SIDE * MAX_SIDE;

const THUMB_SIDE = 256;
const BIG_SIDE = 1080;

/** Extensions libvips (as shipped with sharp) decodes, each with the format a `big` keeps. */
const DECODABLE: Record<string, 'jpeg' | 'png' | 'webp'> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  png: 'png',
  webp: 'webp',
  // Browsers cannot show TIFF, and AVIF encodes slowly: their previews are WebP.
  tif: 'webp',
  tiff: 'webp',
  avif: 'webp',
};

/** Result of a conversion: bytes plus what they are. */
export interface ConvertedImage {
  data: Buffer;
  contentType: string;
  /** Extension of the output format, without the dot. */
  extension: string;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** True when the image can be resized (GIF, SVG, BMP, HEIC… are served as they are). */
export function isResizable(name: string): boolean {
  return extensionOf(name) in DECODABLE;
}

/**
 * The format a preview is written in. Thumbnails of JPEGs stay JPEG (as the reference's always
 * were); other thumbnails are WebP, which keeps transparency. `big` keeps the source's format where
 * browsers show it.
 */
export function outputFormat(name: string, size: PreviewSize): 'jpeg' | 'png' | 'webp' {
  const source = DECODABLE[extensionOf(name)] ?? 'webp';
  if (size === 'thumb') return source === 'jpeg' ? 'jpeg' : 'webp';
  return source;
}

const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
const EXTENSIONS = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;

/**
 * Makes a preview of an image held in memory: EXIF orientation applied, `thumb` a 256×256 centre
 * crop, `big` fitted inside 1080×1080 (never enlarged). Metadata (GPS position and the like) is not
 * copied. Images declaring a side over 10,000 px, or more pixels than the budget, answer 413
 * before any pixel is decoded (decompression bombs); undecodable bytes answer 415.
 */
export async function convertImage(
  input: Buffer,
  name: string,
  size: PreviewSize,
  /** An orientation the bytes do not carry (a RAW's embedded preview); default: their EXIF's. */
  orientation?: number,
): Promise<ConvertedImage> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: MAX_PIXELS, failOn: 'error' as const };
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Reads the header only; the size checks below run before any pixel is decoded.
    ({ width, height } = await sharp(input, { limitInputPixels: false }).metadata());
  } catch {
    throw errors.unsupportedMediaType();
  }
  if (!width || !height) throw errors.unsupportedMediaType();
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw errors.payloadTooLarge('image too large');
  }

  const format = outputFormat(name, size);
  let pipeline = sharp(input, { ...options, sequentialRead: true });
  pipeline = orientation === undefined ? pipeline.rotate() : orient(pipeline, orientation);
  pipeline =
    size === 'thumb'
      ? pipeline.resize(THUMB_SIDE, THUMB_SIDE, { fit: 'cover', position: 'centre' })
      : pipeline.resize(BIG_SIDE, BIG_SIDE, { fit: 'inside', withoutEnlargement: true });
  if (format === 'jpeg')
    pipeline = pipeline.jpeg({ quality: size === 'thumb' ? 75 : 82, mozjpeg: false });
  else if (format === 'png') pipeline = pipeline.png({ compressionLevel: 6 });
  else pipeline = pipeline.webp({ quality: size === 'thumb' ? 75 : 82 });

  try {
    const data = await pipeline.toBuffer();
    return { data, contentType: CONTENT_TYPES[format], extension: EXTENSIONS[format] };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw errors.payloadTooLarge('image too large');
    }
    throw errors.unsupportedMediaType();
  }
}

/** Applies EXIF orientation `value` (1–8) by hand: rotation first, then the mirror. */
function orient(pipeline: Sharp, value: number): Sharp {
  const angle = { 3: 180, 4: 180, 5: 90, 6: 90, 7: 270, 8: 270 }[value] ?? 0;
  let oriented = angle ? pipeline.rotate(angle) : pipeline;
  if (value === 2 || value === 4 || value === 5 || value === 7) oriented = oriented.flop();
  return oriented;
}
