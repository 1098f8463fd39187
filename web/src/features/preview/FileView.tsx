// SEAM (owned by the preview helper; replace this whole file).
import type { Resource } from '@cabinet/protocol';
import { FileDetails } from '../files/FileDetails.tsx';

/** A single file at /files/{path}: the viewer or editor for its type. */
export function FileView({ file }: { file: Resource }) {
  return <FileDetails file={file} />;
}
