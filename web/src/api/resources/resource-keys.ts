/** Query keys of resources (listings and single files), one per scope path. */
export const resourceKeys = {
  all: ['resources'] as const,
  detail: (path: string) => ['resources', 'detail', path] as const,
  /** A file's digest; the modification time makes a changed file hash again. */
  checksum: (path: string, modified: string, algorithm: string) =>
    ['resources', 'checksum', path, modified, algorithm] as const,
  /** The bytes under a folder (the info dialog). */
  treeSize: (path: string, modified: string) => ['resources', 'tree-size', path, modified] as const,
};
