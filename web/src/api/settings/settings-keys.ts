/** Query keys of the global settings. */
export const settingsKeys = {
  all: ['settings'] as const,
};
