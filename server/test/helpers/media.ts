import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { runProcess, type RunResult } from '../../src/process/run-process.ts';

/** Test media made by the real tools (docs/previews.md lists them). */
const LIMITS = { timeoutMs: 120_000, maxOutputBytes: 64 * 1024 * 1024 };

async function tool(command: string, args: string[]): Promise<void> {
  const result: RunResult = await runProcess(command, args, LIMITS);
  if (result.kind !== 'ok') {
    const detail = result.kind === 'failed' ? result.stderr : result.kind;
    throw new Error(`${command} could not make a test file: ${detail}`);
  }
}

/**
 * A video whose first 0.2 s are black and the rest `color`: a poster frame taken at the start
 * would be black. H.264 in `file`'s container (mp4, mkv, mov).
 */
export async function makeVideo(
  file: string,
  color = 'red',
  seconds = 3,
  codec = 'libx264',
): Promise<void> {
  await tool('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x240:r=25:d=0.2',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=320x240:r=25:d=${seconds - 0.2}`,
    '-filter_complex',
    '[0][1]concat=n=2:v=1:a=0',
    '-c:v',
    codec,
    '-pix_fmt',
    'yuv420p',
    '-g',
    '25',
    file,
  ]);
}

/** An MP3 of a sine tone with a cover picture of `color` and a title tag. */
export async function makeAudioWithCover(
  file: string,
  color: string,
  cover: string,
): Promise<void> {
  await sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
    .png()
    .toFile(cover);
  await tool('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-i',
    cover,
    '-map',
    '0',
    '-map',
    '1',
    '-c:a',
    'libmp3lame',
    '-c:v',
    'png',
    '-disposition:v',
    'attached_pic',
    '-metadata',
    'title=Test Tone',
    '-metadata',
    'artist=Cabinet',
    file,
  ]);
}

/** A HEIC photo of one colour, encoded by libheif's heif-enc from a PNG. */
export async function makeHeic(file: string, png: string, color: string): Promise<void> {
  await sharp({ create: { width: 400, height: 300, channels: 3, background: color } })
    .png()
    .toFile(png);
  await tool('heif-enc', ['-q', '80', '-o', file, png]);
}

/** An OpenDocument text (flat XML) converted to `format` by LibreOffice into `outDir`. */
export async function makeOfficeDocument(
  fodt: string,
  outDir: string,
  format: string,
): Promise<void> {
  await tool('soffice', [
    `-env:UserInstallation=file://${outDir}/.profile`,
    '--headless',
    '--convert-to',
    format,
    '--outdir',
    outDir,
    fodt,
  ]);
}

/** Flat OpenDocument text with one paragraph. */
export function flatOdt(text: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text><text:p>${text}</text:p></office:text></office:body></office:document>`;
}

/**
 * A PDF of `pages` pages, each a filled rectangle of RGB `fill` (0–1), written by hand: the
 * objects, then an xref table with their offsets.
 */
export function makePdf(pages: number, fill: [number, number, number]): Buffer {
  const objects: string[] = [];
  const kids: string[] = [];
  const content = `${fill.join(' ')} rg 0 0 200 200 re f`;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  for (let i = 0; i < pages; i++) {
    const id = 4 + i;
    kids.push(`${id} 0 R`);
    objects[id] = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 3 0 R >>';
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  // Parts joined once at the end, with a running byte count (a string grown 20,000 times and
  // measured each time would take minutes).
  const parts = ['%PDF-1.4\n'];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = length;
    const part = `${id} 0 obj\n${objects[id]}\nendobj\n`;
    parts.push(part);
    length += part.length;
  }
  const xref = length;
  parts.push(`xref\n0 ${objects.length}\n0000000000 65535 f \n`);
  for (let id = 1; id < objects.length; id++) {
    parts.push(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  }
  parts.push(`trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const body = parts.join('');
  return Buffer.from(body);
}

/** The mean colour of an image, rounded, to tell which picture a preview shows. */
export async function meanColor(image: Buffer): Promise<{ r: number; g: number; b: number }> {
  const { channels } = await sharp(image).stats();
  const [r, g, b] = channels.map((c) => Math.round(c.mean));
  return { r: r ?? 0, g: g ?? 0, b: b ?? 0 };
}

/** TIFF field types used by makeDng, with their byte sizes. */
const TIFF_TYPES = {
  byte: [1, 1],
  ascii: [2, 1],
  short: [3, 2],
  long: [4, 4],
  rational: [5, 8],
  srational: [10, 8],
} as const;

/**
 * A real camera RAW without an embedded preview: an uncompressed DNG 1.4 (a TIFF holding a Bayer
 * mosaic, RGGB, 16 bits a photosite) of one colour, `rgb` in 0–65535 per channel. No tool here
 * writes RAW files, so it is written by hand from the DNG specification; LibRaw (dcraw_emu) then
 * has to demosaic it, as it does a camera's file.
 */
export async function makeDng(
  file: string,
  width: number,
  height: number,
  rgb: [number, number, number],
): Promise<void> {
  const [r, g, b] = rgb;
  const pixels = Buffer.alloc(width * height * 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = y % 2 === 0 ? (x % 2 === 0 ? r : g) : x % 2 === 0 ? g : b;
      pixels.writeUInt16LE(value, (y * width + x) * 2);
    }
  }
  const text = (value: string) => Buffer.from(`${value}\0`, 'latin1');
  type Type = keyof typeof TIFF_TYPES;
  // Tag, type, values (rationals as numerator, denominator pairs). Sorted by tag, as TIFF wants.
  const fields: [number, Type, number[] | Buffer][] = [
    [254, 'long', [0]], // NewSubFileType: the main image
    [256, 'long', [width]],
    [257, 'long', [height]],
    [258, 'short', [16]], // BitsPerSample
    [259, 'short', [1]], // no compression
    [262, 'short', [32803]], // PhotometricInterpretation: CFA
    [271, 'ascii', text('Cabinet')],
    [272, 'ascii', text('Test Camera')],
    [273, 'long', [0]], // StripOffsets, set below
    [274, 'short', [1]], // Orientation
    [277, 'short', [1]], // SamplesPerPixel
    [278, 'long', [height]], // RowsPerStrip
    [279, 'long', [pixels.length]], // StripByteCounts
    [284, 'short', [1]], // PlanarConfiguration
    [33421, 'short', [2, 2]], // CFARepeatPatternDim
    [33422, 'byte', [0, 1, 1, 2]], // CFAPattern: RGGB
    [50706, 'byte', [1, 4, 0, 0]], // DNGVersion
    [50708, 'ascii', text('Cabinet Test Camera')], // UniqueCameraModel
    [50714, 'short', [0]], // BlackLevel
    [50717, 'long', [65535]], // WhiteLevel
    // ColorMatrix1: identity; AsShotNeutral: no white balance; CalibrationIlluminant1: D65.
    [50721, 'srational', [1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1]],
    [50728, 'rational', [1, 1, 1, 1, 1, 1]],
    [50778, 'short', [21]],
  ];
  const ifdSize = 2 + fields.length * 12 + 4;
  const ifd = Buffer.alloc(ifdSize);
  ifd.writeUInt16LE(fields.length, 0);
  const outside: Buffer[] = [];
  let next = 8 + ifdSize;
  let stripOffsetAt = 0;
  fields.forEach(([tag, type, values], i) => {
    const [code, size] = TIFF_TYPES[type];
    const paired = type === 'rational' || type === 'srational';
    const count = Buffer.isBuffer(values)
      ? values.length
      : paired
        ? values.length / 2
        : values.length;
    let data: Buffer;
    if (Buffer.isBuffer(values)) {
      data = values;
    } else {
      data = Buffer.alloc(count * size);
      values.forEach((value, k) => {
        if (type === 'byte') data.writeUInt8(value, k);
        else if (type === 'short') data.writeUInt16LE(value, k * 2);
        else if (type === 'srational') data.writeInt32LE(value, k * 4);
        else data.writeUInt32LE(value, k * 4);
      });
    }
    const at = 2 + i * 12;
    ifd.writeUInt16LE(tag, at);
    ifd.writeUInt16LE(code, at + 2);
    ifd.writeUInt32LE(count, at + 4);
    if (tag === 273) stripOffsetAt = at + 8;
    if (data.length <= 4) {
      data.copy(ifd, at + 8);
    } else {
      ifd.writeUInt32LE(next, at + 8);
      // Values start on a word boundary.
      const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
      outside.push(padded);
      next += padded.length;
    }
  });
  ifd.writeUInt32LE(next, stripOffsetAt);
  const header = Buffer.from([0x49, 0x49, 42, 0, 8, 0, 0, 0]); // "II", 42, first IFD at 8
  await writeFile(file, Buffer.concat([header, ifd, ...outside, pixels]));
}
