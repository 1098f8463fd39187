import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import { errors } from '../errors.ts';
import { ChildCompressor, hasCommand } from './child-compressor.ts';

/** A compressor program and its arguments (it reads stdin and writes stdout). */
export interface CompressorProgram {
  command: string;
  args: readonly string[];
}

/** How a format's container bytes get compressed. */
export interface CompressorSpec {
  /** Programs to run, in order of preference; the first one installed is used. */
  programs?: readonly CompressorProgram[];
  /**
   * Loads the in-process compressor, used when none of the programs is installed. Loaded on first
   * use: the native compression modules together take ~17 MiB of memory that most servers never
   * need.
   */
  inProcess?: () => Promise<() => Duplex>;
  /**
   * The in-process compressor is one of zlib's: done with a chunk once its write called back, and
   * an output chunk that fills its buffer is never written again (zlib takes a new buffer then).
   * Framers that batch chunks are not: they get copies, and their output is left to the collector.
   */
  inProcessZlib?: boolean;
}

/** One downloadable archive format. */
export interface ArchiveFormat {
  /** The `algo=` value that selects it. */
  algo: string;
  /** File name extension, with the leading dot. */
  extension: string;
  contentType: string;
  container: 'zip' | 'tar';
  compressor?: CompressorSpec;
}

/** gzip level: archives are made on the fly, so speed matters more than the last few percent. */
const GZIP_LEVEL = 2;
/** Brotli's default quality (11) runs at well under 1 MB/s; 4 is the streaming sweet spot. */
const BROTLI_QUALITY = 4;
const ZSTD_LEVEL = 3;

const FORMATS: readonly ArchiveFormat[] = [
  { algo: 'zip', extension: '.zip', contentType: 'application/zip', container: 'zip' },
  { algo: 'tar', extension: '.tar', contentType: 'application/x-tar', container: 'tar' },
  {
    algo: 'targz',
    extension: '.tar.gz',
    contentType: 'application/gzip',
    container: 'tar',
    compressor: {
      // pigz compresses on every core in a separate process; zlib (thread pool) otherwise.
      programs: [{ command: 'pigz', args: [`-${GZIP_LEVEL}`, '-c'] }],
      inProcess: async () => () => zlib.createGzip({ level: GZIP_LEVEL }),
      inProcessZlib: true,
    },
  },
  {
    algo: 'tarbz2',
    extension: '.tar.bz2',
    contentType: 'application/x-bzip2',
    container: 'tar',
    compressor: {
      // lbzip2 uses every core (about 7× bzip2 here); bzip2 is the everywhere fallback.
      programs: [
        { command: 'lbzip2', args: ['-9', '-c'] },
        { command: 'bzip2', args: ['-9', '-c'] },
      ],
    },
  },
  {
    algo: 'tarxz',
    extension: '.tar.xz',
    contentType: 'application/x-xz',
    container: 'tar',
    // Preset 3 is several times faster than the default 6 at a slightly larger size.
    compressor: { programs: [{ command: 'xz', args: ['-T0', '-3', '-c', '-q'] }] },
  },
  {
    algo: 'tarlz4',
    extension: '.tar.lz4',
    contentType: 'application/x-lz4',
    container: 'tar',
    compressor: {
      // The lz4 program keeps memory lowest; lz4-napi frames are the in-process fallback.
      programs: [{ command: 'lz4', args: ['-1', '-c', '-q'] }],
      inProcess: async () => {
        const { Lz4Framer } = await import('./lz4-framer.ts');
        return () => new Lz4Framer();
      },
    },
  },
  {
    algo: 'tarsz',
    extension: '.tar.sz',
    contentType: 'application/x-snappy-framed',
    container: 'tar',
    compressor: {
      inProcess: async () => {
        const { SnappyFramer } = await import('./snappy-framer.ts');
        return () => new SnappyFramer();
      },
    },
  },
  {
    algo: 'tarbr',
    extension: '.tar.br',
    contentType: 'application/x-brotli',
    container: 'tar',
    compressor: {
      inProcess: async () => () =>
        zlib.createBrotliCompress({
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_GENERIC,
          },
        }),
      inProcessZlib: true,
    },
  },
  {
    algo: 'tarzst',
    extension: '.tar.zst',
    contentType: 'application/zstd',
    container: 'tar',
    compressor: {
      inProcess: async () => {
        const { CompressStream } = await import('zstd-napi');
        return () => new CompressStream({ compressionLevel: ZSTD_LEVEL, checksumFlag: true });
      },
    },
  },
];

/** Every format by its `algo=` value, in the order the docs list them. */
export const ARCHIVE_FORMATS: ReadonlyMap<string, ArchiveFormat> = new Map(
  FORMATS.map((format) => [format.algo, format]),
);

/**
 * The format for an `algo=` query value: `zip`, `true` or empty mean zip (the reference client's
 * values). Anything unknown is a 400 (the reference answered 500).
 */
export function archiveFormat(algo: string | undefined): ArchiveFormat {
  const key = !algo || algo === 'true' ? 'zip' : algo;
  const format = ARCHIVE_FORMATS.get(key);
  if (!format) throw errors.badRequest(`format not implemented: ${algo}`);
  return format;
}

/** Makes compressors: the first installed program of the spec, else its in-process one. */
export interface CompressorFactory {
  make(): Duplex;
  /**
   * Whether what `make` gives (a program, zlib) is done with a chunk once its write called back,
   * so a writer may use the buffer again, and hands out output chunks that, when they span their
   * buffer, are the reader's alone (a program's are read from its pipe into fresh memory), so they
   * can be given back once written (streams/chunk-release.ts). Framers are neither.
   */
  releasesChunks: boolean;
}

/**
 * Picks how the format's bytes will be compressed on this host (undefined: no compression).
 * Throws 501 when the format needs a program the host lacks, so callers can answer before any
 * byte is streamed.
 */
export async function compressorFactory(
  format: ArchiveFormat,
): Promise<CompressorFactory | undefined> {
  const spec = format.compressor;
  if (!spec) return undefined;
  for (const program of spec.programs ?? []) {
    if (await hasCommand(program.command)) {
      const make = () => new ChildCompressor(program.command, program.args);
      return { make, releasesChunks: true };
    }
  }
  if (spec.inProcess) {
    return { make: await spec.inProcess(), releasesChunks: spec.inProcessZlib ?? false };
  }
  const names = (spec.programs ?? []).map((program) => program.command).join(' or ');
  throw errors.notImplemented(`${format.extension} needs ${names}, which is not installed`);
}
