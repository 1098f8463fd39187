/** Query keys of resources (listings and single files), one per scope path. */
export const resourceKeys = {
  all: ['resources'] as const,
  detail: (path: string) => ['resources', 'detail', path] as const,
};
