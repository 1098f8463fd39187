import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { flatOdt, makeOfficeDocument, makePdf, meanColor } from './helpers/media.ts';

let server: TestServer;

async function preview(url: string) {
  const response = await server.fetch(url, { token: server.admin.token });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

/** Every file name under a folder, recursively. */
async function namesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true }).catch(() => []);
  return entries.map((entry) => path.basename(String(entry)));
}

beforeAll(async () => {
  server = await startTestServer();
  const docs = path.join(server.root, 'docs');
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(docs, 'green.pdf'), makePdf(1, [0, 0.8, 0]));
  await writeFile(path.join(docs, 'letter.fodt'), flatOdt('Hello from Cabinet'));
  await makeOfficeDocument(path.join(docs, 'letter.fodt'), docs, 'docx');
  await writeFile(path.join(docs, 'broken.docx'), Buffer.from('PK\x03\x04 not really a zip'));
});

afterAll(async () => {
  await server?.close();
});

describe('document previews', () => {
  it("makes a thumbnail of a PDF's first page", async () => {
    const { response, body } = await preview('/api/preview/thumb/docs/green.pdf');
    expect(response.status).toBe(200);
    const meta = await sharp(body).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    const color = await meanColor(body);
    expect(color.g).toBeGreaterThan(150);
    expect(color.r).toBeLessThan(60);
  });

  it('renders a Word document with LibreOffice: a page thumbnail and a PDF preview', async () => {
    const thumb = await preview('/api/preview/thumb/docs/letter.docx');
    expect(thumb.response.status).toBe(200);
    // A white page with a line of text.
    expect((await meanColor(thumb.body)).r).toBeGreaterThan(200);
    const pdf = await preview('/api/preview/pdf/docs/letter.docx?inline=true');
    expect(pdf.response.status).toBe(200);
    expect(pdf.response.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.response.headers.get('content-disposition')).toContain('letter.pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    // The flat OpenDocument source is an office file too.
    expect((await preview('/api/preview/pdf/docs/letter.fodt')).response.status).toBe(200);
  });

  it('answers 501 for a PDF preview of a file that is not an office document', async () => {
    expect((await preview('/api/preview/pdf/docs/green.pdf')).response.status).toBe(501);
  });

  it('answers 415 for a broken document and remembers the failure until the file changes', async () => {
    expect((await preview('/api/preview/thumb/docs/broken.docx')).response.status).toBe(415);
    expect(await namesUnder(path.join(server.dataDir, 'cache', 'previews'))).toContainEqual(
      expect.stringMatching(/^@failed-/),
    );
    expect((await preview('/api/preview/big/docs/broken.docx')).response.status).toBe(415);
    // Replaced by a real document: the marker named the old size and time, so it is made again.
    await makeOfficeDocument(
      path.join(server.root, 'docs/letter.fodt'),
      path.join(server.dataDir),
      'docx',
    );
    await copyFile(
      path.join(server.dataDir, 'letter.docx'),
      path.join(server.root, 'docs/broken.docx'),
    );
    expect((await preview('/api/preview/thumb/docs/broken.docx')).response.status).toBe(200);
  });
});

describe('capabilities', () => {
  it('reports in GET /api/health which previews this server makes', async () => {
    const response = await server.fetch('/api/health');
    const body = (await response.json()) as { details: { previews: Record<string, boolean> } };
    expect(body.details.previews).toEqual({
      image: true,
      heic: true,
      raw: true,
      video: true,
      audio: true,
      pdf: true,
      office: true,
    });
  });
});
