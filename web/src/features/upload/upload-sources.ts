/** Turning what the user picked or dropped into a flat list of things to upload. */

/** One file or folder to create, relative to the folder the user uploads into. */
export interface UploadSource {
  /** "a.txt", "photos/2024/b.jpg"; folders end with "/" ("photos/empty/"). */
  relativePath: string;
  /** The bytes; absent for folders. */
  file?: File;
}

/** The top-level name a source lands under ("photos" for "photos/2024/b.jpg"). */
export function topLevelName(source: UploadSource): string {
  return source.relativePath.split('/')[0]!;
}

/**
 * Files from an <input type=file>: a folder input names each file by its path inside the chosen
 * folder (webkitRelativePath), a plain one by its name.
 */
export function sourcesFromFiles(files: Iterable<File>): UploadSource[] {
  return Array.from(files, (file) => ({
    relativePath: file.webkitRelativePath || file.name,
    file,
  }));
}

/** What a drop holds, read before the browser empties the DataTransfer. */
export type DroppedItem = { entry: FileSystemEntry } | { file: File };

/**
 * Reads the dropped items at once: the browser empties a DataTransfer as soon as the drop
 * handler returns, so this must run synchronously inside it. Walking folders comes later.
 */
export function readDroppedItems(data: DataTransfer): DroppedItem[] {
  const items: DroppedItem[] = [];
  if (data.items.length > 0) {
    for (const item of Array.from(data.items)) {
      if (item.kind !== 'file') continue;
      const entry = item.webkitGetAsEntry();
      const file = entry ? null : item.getAsFile();
      if (entry) items.push({ entry });
      else if (file) items.push({ file });
    }
    return items;
  }
  return Array.from(data.files, (file) => ({ file }));
}

/** Walks dropped folders (recursively, empty ones included) into sources. */
export async function sourcesFromDroppedItems(items: DroppedItem[]): Promise<UploadSource[]> {
  const sources: UploadSource[] = [];
  for (const item of items) {
    if ('file' in item) sources.push({ relativePath: item.file.name, file: item.file });
    else await walkEntry(item.entry, sources);
  }
  return sources;
}

async function walkEntry(entry: FileSystemEntry, into: UploadSource[]): Promise<void> {
  const relativePath = entry.fullPath.replace(/^\/+/, '');
  if (isFileEntry(entry)) {
    const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
    into.push({ relativePath, file });
    return;
  }
  if (!isDirectoryEntry(entry)) return;
  into.push({ relativePath: `${relativePath}/` });
  for (const child of await readAllEntries(entry)) await walkEntry(child, into);
}

/** A directory reader hands out entries in batches (100 in Chromium) until an empty one. */
async function readAllEntries(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const entries: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return entries;
    entries.push(...batch);
  }
}

function isFileEntry(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

function isDirectoryEntry(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}
