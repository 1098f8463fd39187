import {
  File,
  FileArchive,
  FileAudio,
  FileImage,
  FileText,
  FileType,
  FileVideo,
  Folder,
  type LucideIcon,
} from 'lucide-react';

const ARCHIVE_EXTENSIONS = new Set([
  '.zip',
  '.tar',
  '.gz',
  '.tgz',
  '.bz2',
  '.xz',
  '.lz4',
  '.sz',
  '.br',
  '.zst',
  '.7z',
  '.rar',
]);

/** The kind of file an entry is, for its icon (docs/design.md: folder, image, video, audio, pdf, text, archive, other). */
export function iconKind(entry: { isDir: boolean; type: string; extension: string }): string {
  if (entry.isDir) return 'folder';
  if (ARCHIVE_EXTENSIONS.has(entry.extension.toLowerCase())) return 'archive';
  switch (entry.type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'pdf':
      return entry.type;
    case 'text':
    case 'textImmutable':
      return 'text';
    default:
      return 'other';
  }
}

const ICONS: Record<string, LucideIcon> = {
  folder: Folder,
  archive: FileArchive,
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  pdf: FileType,
  text: FileText,
  other: File,
};

/** The icon of a listing entry (decorative: the name next to it is the label). */
export function FileIcon(props: {
  entry: { isDir: boolean; type: string; extension: string };
  size?: number;
}) {
  const kind = iconKind(props.entry);
  const Icon = ICONS[kind] ?? File;
  return <Icon className="file-icon" data-kind={kind} size={props.size ?? 24} aria-hidden="true" />;
}
