import { resourceKeys } from '../resources/resource-keys.ts';

/**
 * Query keys of the signed-in user's storage usage. Under the resources' keys on purpose: every
 * write that refreshes listings (upload, save, copy, delete) refreshes the usage too.
 */
export const quotaKeys = {
  all: [...resourceKeys.all, 'quota'] as const,
};
