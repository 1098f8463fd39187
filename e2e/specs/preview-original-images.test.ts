import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rotatedJpeg } from '../fixtures/preview-fixtures.ts';
import { PreviewPage } from '../pages/preview.ts';
import { withCabinet } from '../support/cabinet.ts';
import { openPreview } from '../support/open-preview.ts';

// A cabinet.server started with --no-resize-preview: there are no big previews to toggle from.
const cabinet = withCabinet({
  server: { config: { resizePreview: false } },
  setup: async (server) => {
    await writeFile(path.join(server.root, 'photo.jpg'), await rotatedJpeg());
    await writeFile(path.join(server.root, 'broken.jpg'), 'these bytes are not an image');
  },
});

async function open(encodedPath: string, name: string): Promise<PreviewPage> {
  return (await openPreview(cabinet, encodedPath, name)).preview;
}

describe('images without resized previews', () => {
  it('shows the original, upright, with no full-size toggle', async () => {
    const preview = await open('photo.jpg', 'photo.jpg');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.naturalHeight))
      .toBe(80);
    expect(await preview.image.getAttribute('src')).toContain('/api/raw/photo.jpg?inline=true');
    expect(await preview.fullSize.count()).toBe(0);
  });

  it('offers an image the browser cannot show for download instead', async () => {
    const preview = await open('broken.jpg', 'broken.jpg');
    await preview.downloadCard.getByText('This image cannot be shown.').waitFor();
    expect(await preview.image.count()).toBe(0);
    await preview.downloadCard.getByRole('link', { name: 'Download broken.jpg' }).waitFor();
  });
});
