import type { Resource } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { viewerKind } from './viewer-kind.ts';

function file(name: string, type: string): Resource {
  const dot = name.lastIndexOf('.');
  return {
    path: `/${name}`,
    name,
    size: 10,
    extension: dot < 0 ? '' : name.slice(dot),
    modified: '2026-11-29T06:00:00Z',
    mode: 0o644,
    isDir: false,
    isSymlink: false,
    type,
    content: type === 'text' ? 'a,b' : undefined,
  };
}

describe('viewerKind', () => {
  it('shows Word, Excel, PowerPoint and OpenDocument files as the PDF the server renders', () => {
    for (const name of ['letter.docx', 'Budget.XLSX', 'talk.pptx', 'notes.odt', 'old.doc']) {
      expect(viewerKind(file(name, 'blob'))).toBe('office');
    }
  });

  it('keeps CSV as text and PDFs in the PDF viewer', () => {
    expect(viewerKind(file('table.csv', 'text'))).toBe('text');
    expect(viewerKind(file('paper.pdf', 'pdf'))).toBe('pdf');
    expect(viewerKind(file('data.bin', 'blob'))).toBe('download');
  });
});
