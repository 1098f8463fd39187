import { describeFailure, type RunResult } from '../../process/run-process.ts';

/**
 * Limits of every decoder run (docs/previews.md). A hostile file (a truncated video, a zip bomb
 * posing as a DOCX, a PDF of 100,000 pages) ends in one of them and fails alone.
 */
export const DECODER_LIMITS = {
  probe: { timeoutMs: 15_000, memoryBytes: 512 * 1024 * 1024, maxOutputBytes: 1024 * 1024 },
  frame: { timeoutMs: 30_000, memoryBytes: 1024 * 1024 * 1024, maxOutputBytes: 32 * 1024 * 1024 },
  image: { timeoutMs: 30_000, memoryBytes: 1024 * 1024 * 1024, maxOutputBytes: 64 * 1024 * 1024 },
  pdfPage: { timeoutMs: 30_000, memoryBytes: 512 * 1024 * 1024, maxOutputBytes: 32 * 1024 * 1024 },
  // LibreOffice maps far more address space than it uses; 3 GiB still stops a runaway document.
  office: {
    timeoutMs: 120_000,
    memoryBytes: 3 * 1024 * 1024 * 1024,
    maxOutputBytes: 1024 * 1024,
  },
} as const;

/** Longest side of the picture a decoder hands to sharp (the `big` preview's size). */
export const DECODED_SIDE = 1080;
/** Largest PDF a LibreOffice conversion may produce. */
export const MAX_OFFICE_PDF_BYTES = 100 * 1024 * 1024;

/** Why a decoder made no picture; `missing` when the tool is not installed. */
export class DecodeError extends Error {
  constructor(
    message: string,
    readonly reason: 'missing' | 'failed' | 'cancelled',
  ) {
    super(message);
  }
}

/** The output of a successful run, or the DecodeError that says why there is none. */
export function outputOf(tool: string, result: RunResult): Buffer {
  if (result.kind === 'ok') {
    if (result.stdout.length === 0) throw new DecodeError(`${tool} made no picture`, 'failed');
    return result.stdout;
  }
  const reason =
    result.kind === 'not-installed'
      ? 'missing'
      : result.kind === 'cancelled'
        ? 'cancelled'
        : 'failed';
  throw new DecodeError(`${tool} ${describeFailure(result)}`, reason);
}
