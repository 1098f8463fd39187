import { findCommand } from '../process/run-process.ts';
import type { PreviewFamily } from './formats.ts';

/** The Debian tools the decoders run (docs/previews.md), by the package that ships each. */
export const DECODER_TOOLS = {
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
  'heif-convert': 'libheif-examples',
  exiftool: 'libimage-exiftool-perl',
  dcraw_emu: 'libraw-bin',
  pdftoppm: 'poppler-utils',
  soffice: 'libreoffice-writer-nogui (and -calc-nogui, -impress-nogui)',
} as const;
export type DecoderTool = keyof typeof DECODER_TOOLS;

/** Which tools are installed and so which families get pictures; detected once at start. */
export interface PreviewCapabilities {
  tools: Record<DecoderTool, boolean>;
  families: Record<PreviewFamily, boolean>;
}

/** The families each tool set makes possible (sharp alone always makes `image`). */
export function familiesOf(tools: Record<DecoderTool, boolean>): Record<PreviewFamily, boolean> {
  return {
    image: true,
    heic: tools['heif-convert'],
    raw: tools.exiftool || tools.dcraw_emu,
    video: tools.ffmpeg && tools.ffprobe,
    audio: tools.ffmpeg && tools.ffprobe,
    pdf: tools.pdftoppm,
    office: tools.soffice && tools.pdftoppm,
  };
}

/** Looks every decoder tool up on PATH. */
export async function detectCapabilities(): Promise<PreviewCapabilities> {
  const names = Object.keys(DECODER_TOOLS) as DecoderTool[];
  const found = await Promise.all(
    names.map(async (name) => (await findCommand(name)) !== undefined),
  );
  const tools = Object.fromEntries(names.map((name, i) => [name, found[i]])) as Record<
    DecoderTool,
    boolean
  >;
  return { tools, families: familiesOf(tools) };
}

/** Nothing but sharp: what a server answers before detection has run. */
export const NO_TOOLS: PreviewCapabilities = {
  tools: {
    ffmpeg: false,
    ffprobe: false,
    'heif-convert': false,
    exiftool: false,
    dcraw_emu: false,
    pdftoppm: false,
    soffice: false,
  },
  families: familiesOf({
    ffmpeg: false,
    ffprobe: false,
    'heif-convert': false,
    exiftool: false,
    dcraw_emu: false,
    pdftoppm: false,
    soffice: false,
  }),
};
