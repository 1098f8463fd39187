import { previewFamilyOf, type Resource } from '@cabinet/protocol';

/** Which viewer shows a file. */
export type ViewerKind =
  'image' | 'audio' | 'video' | 'pdf' | 'office' | 'markdown' | 'text' | 'download';

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown']);

/**
 * The viewer for a file, by the server's `type` (office documents by extension). Text needs its content: the server leaves it
 * out for files above its text limit or without the download permission, so those (unless
 * simply empty) are offered for download instead.
 */
export function viewerKind(file: Resource): ViewerKind {
  // Word, Excel, PowerPoint and OpenDocument files show as the PDF the server renders
  // (docs/previews.md); CSV and other text stays text.
  if (!file.type.startsWith('text') && previewFamilyOf(file.name) === 'office') return 'office';
  switch (file.type) {
    case 'image':
    case 'audio':
    case 'video':
    case 'pdf':
      return file.type;
    case 'text':
    case 'textImmutable':
      if (file.content === undefined && file.size > 0) return 'download';
      return MARKDOWN_EXTENSIONS.has(file.extension.toLowerCase()) ? 'markdown' : 'text';
    default:
      return 'download';
  }
}
