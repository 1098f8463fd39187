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
