import path from 'node:path';
import { runProcess, withTempDir } from '../../process/run-process.ts';
import {
  DECODED_SIDE,
  DECODER_LIMITS,
  DecodeError,
  MAX_OFFICE_PDF_BYTES,
  outputOf,
} from './limits.ts';

/** The first page of a PDF as PNG, scaled inside 1080 px; no other page is ever rendered. */
export async function pdfFirstPage(file: string, signal?: AbortSignal): Promise<Buffer> {
  const result = await runProcess(
    'pdftoppm',
    ['-f', '1', '-l', '1', '-scale-to', String(DECODED_SIDE), '-png', '--', file],
    { ...DECODER_LIMITS.pdfPage, signal },
  );
  return outputOf('pdftoppm', result);
}

/** An office document converted by LibreOffice: the PDF and its first page. */
export interface OfficeRendering {
  pdf: Buffer;
  firstPage: Buffer;
}

/**
 * Converts a Word, Excel, PowerPoint or OpenDocument file to PDF with LibreOffice run headless in
 * a throw-away profile (`-env:UserInstallation`), so no user's settings, macros or recent files
 * are read or written, then renders its first page. The caller runs one conversion at a time:
 * LibreOffice is heavy, and two instances sharing nothing still compete for the cores.
 */
export async function officeToPdf(
  file: string,
  signal?: AbortSignal,
  timeoutMs: number = DECODER_LIMITS.office.timeoutMs,
): Promise<OfficeRendering> {
  return withTempDir(async (dir) => {
    const result = await runProcess(
      'soffice',
      [
        `-env:UserInstallation=file://${dir.path}/profile`,
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--convert-to',
        'pdf',
        '--outdir',
        `${dir.path}/out`,
        file,
      ],
      { ...DECODER_LIMITS.office, timeoutMs, cwd: dir.path, signal },
    );
    if (result.kind !== 'ok') outputOf('soffice', result);
    const base = path.basename(file).replace(/\.[^.]*$/, '');
    const pdf = await dir.read(`out/${base}.pdf`, MAX_OFFICE_PDF_BYTES);
    if (!pdf) throw new DecodeError('LibreOffice made no PDF of the file', 'failed');
    const firstPage = await pdfFirstPage(`${dir.path}/out/${base}.pdf`, signal);
    return { pdf, firstPage };
  });
}
