import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINE_LENGTH, textLines } from '../src/preview/subtitles/text-lines.ts';
import { assText, assToVtt, srtToVtt } from '../src/preview/subtitles/to-webvtt.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

async function collect(source: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const part of source) out += part;
  return out;
}

/** Feeds bytes in chunks of `size`, as a slow network or a small read buffer would. */
async function* chunks(data: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function lines(data: Buffer, size = 3): Promise<string[]> {
  const result: string[] = [];
  for await (const line of textLines(chunks(data, size))) result.push(line);
  return result;
}

const SRT = [
  '1',
  '00:00:01,000 --> 00:00:04,500',
  'Hello <i>world</i>',
  '',
  '2',
  '00:00:05,250 --> 00:00:07,000 X1:10 X2:20 Y1:10 Y2:20',
  'first line<br>second line<br/>third',
  '{\\an8}top --> text',
  '',
  '',
  '3',
  '1:02:03,4 --> 1:02:05,45',
  '42',
  '',
].join('\r\n');

const SRT_VTT = [
  'WEBVTT',
  '',
  '1',
  '00:00:01.000 --> 00:00:04.500',
  'Hello <i>world</i>',
  '',
  '2',
  '00:00:05.250 --> 00:00:07.000',
  'first line',
  'second line',
  'third',
  'top → text',
  '',
  '3',
  '01:02:03.400 --> 01:02:05.450',
  '42',
  '',
  '',
].join('\n');

const ASS = [
  '[Script Info]',
  'Title: sample',
  'ScriptType: v4.00+',
  '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize',
  'Style: Default,Arial,20',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:01.00,0:00:03.50,Default,,0,0,0,,{\\i1}Hello{\\i0}, world',
  'Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,not shown',
  'Dialogue: 0,0:00:04.05,0:00:06.00,Default,,0,0,0,,Line one\\NLine two\\hend <b>&',
  'Dialogue: 0,0:00:07.00,0:00:08.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100{\\p0}',
  'Dialogue: 0,1:00:00.00,1:00:01.00,Default,,0,0,0,,{\\pos(10,20)\\c&H00FF00&}Positioned',
].join('\n');

const ASS_VTT = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:03.500',
  'Hello, world',
  '',
  '00:00:04.050 --> 00:00:06.000',
  'Line one',
  'Line two\u00a0end &lt;b&gt;&amp;',
  '',
  '01:00:00.000 --> 01:00:01.000',
  'Positioned',
  '',
  '',
].join('\n');

describe('textLines', () => {
  it('splits LF, CRLF and lone CR, even across chunk boundaries', async () => {
    expect(await lines(Buffer.from('a\r\nb\rc\nd'), 1)).toEqual(['a', 'b', 'c', 'd']);
    expect(await lines(Buffer.from('a\r\n\r\nb'), 2)).toEqual(['a', '', 'b']);
  });

  it('drops a UTF-8 byte-order mark and decodes UTF-16 with one', async () => {
    expect(await lines(Buffer.from('\uFEFFéa\nb', 'utf8'), 1)).toEqual(['éa', 'b']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ü1\r\nz', 'utf16le')]);
    expect(await lines(utf16, 3)).toEqual(['ü1', 'z']);
    expect(await lines(Buffer.from('x'))).toEqual(['x']);
  });

  it('caps very long lines', async () => {
    const long = Buffer.from(`${'a'.repeat(MAX_LINE_LENGTH * 2)}\nend`);
    const result = await lines(long, 4096);
    expect(result[0]!.length).toBe(MAX_LINE_LENGTH);
    expect(result[1]).toBe('end');
  });
});

describe('SRT to WebVTT', () => {
  it('converts timings, <br> tags, override blocks and CRLF files', async () => {
    const source = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SRT)]);
    expect(await collect(srtToVtt(textLines(chunks(source, 7))))).toBe(SRT_VTT);
  });
});

describe('ASS/SSA to WebVTT', () => {
  it('converts Dialogue lines, honouring the Format line and stripping overrides', async () => {
    expect(await collect(assToVtt(textLines(chunks(Buffer.from(ASS), 5))))).toBe(ASS_VTT);
  });

  it('uses the default field order when a file has no Format line', async () => {
    const ssa = '[Events]\nDialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hi, there\n';
    expect(await collect(assToVtt(textLines(chunks(Buffer.from(ssa), 64))))).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi, there\n\n',
    );
  });

  it('keeps text commas and drops drawings', () => {
    expect(assText('{\\b1}a, b{\\b0}')).toEqual(['a, b']);
    expect(assText('{\\p2}m 0 0{\\p0}after')).toEqual(['after']);
  });
});

describe('GET /api/subtitle', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await mkdir(path.join(server.root, 'movie/subs'), { recursive: true });
    await writeFile(path.join(server.root, 'movie/film.srt'), SRT);
    await writeFile(path.join(server.root, 'movie/film.ass'), ASS);
    await writeFile(path.join(server.root, 'movie/film.SSA'), ASS);
    await writeFile(
      path.join(server.root, 'movie/film.vtt'),
      'WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n',
    );
    await writeFile(path.join(server.root, 'movie/film.txt'), 'not subtitles');
  });

  afterAll(async () => {
    await server.close();
  });

  it('converts SRT to WebVTT with text/vtt and the sandbox CSP', async () => {
    const response = await server.fetch('/api/subtitle/movie/film.srt?inline=true', {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('content-disposition')).toBe("inline; filename*=utf-8''film.srt");
    expect(await response.text()).toBe(SRT_VTT);
  });

  it('converts ASS and SSA (any case) and passes WebVTT through', async () => {
    for (const name of ['film.ass', 'film.SSA']) {
      const response = await server.fetch(`/api/subtitle/movie/${name}`, {
        token: server.admin.token,
      });
      expect(await response.text()).toBe(ASS_VTT);
    }
    const vtt = await server.fetch('/api/subtitle/movie/film.vtt', { token: server.admin.token });
    expect(await vtt.text()).toBe('WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n');
  });

  it('answers 400 for folders and other extensions, 404 when missing, 202 without download', async () => {
    const status = async (url: string, token = server.admin.token) =>
      (await server.fetch(url, { token })).status;
    expect(await status('/api/subtitle/movie/subs')).toBe(400);
    expect(await status('/api/subtitle/movie/film.txt')).toBe(400);
    expect(await status('/api/subtitle/movie/none.srt')).toBe(404);
    const { token } = await server.createUser({ perm: { download: false } });
    expect(await status('/api/subtitle/movie/film.srt', token)).toBe(202);
    const blocked = await server.createUser({
      rules: [{ regex: false, allow: false, path: '/movie', regexp: { raw: '' } }],
    });
    expect(await status('/api/subtitle/movie/film.srt', blocked.token)).toBe(403);
  });

  it('accepts the token from the auth query parameter', async () => {
    const response = await server.fetch(`/api/subtitle/movie/film.vtt?auth=${server.admin.token}`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
});
