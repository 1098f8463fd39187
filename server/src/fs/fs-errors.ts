import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { AppError, errors } from '../errors.ts';

/** Node's system error shape. */
export interface SystemError extends Error {
  code?: string;
}

/** The errno code of a thrown value, if any. */
export function errorCode(error: unknown): string | undefined {
  return (error as SystemError | null)?.code;
}

/**
 * Maps a file-system failure to the API's error catalogue. Messages never carry
 * real paths: a 500 is logged by the error handler with the cause, the client sees only the status.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  switch (errorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return errors.notFound();
    case 'EEXIST':
    case 'ENOTEMPTY':
      return errors.conflict();
    case 'EACCES':
    case 'EPERM':
    case 'ELOOP':
    case 'EROFS':
      return errors.forbidden();
    case 'ENAMETOOLONG':
      return errors.badRequest('name too long');
    case 'EISDIR':
      return errors.badRequest('path is a directory');
    case 'EINVAL':
      return errors.badRequest('invalid path');
    case 'ENOSPC':
    case 'EDQUOT':
      return errors.diskFull();
    default:
      return errors.internal('file system error', error);
  }
}

/** Runs a file-system operation and rethrows failures as AppErrors. */
export async function mapFsErrors<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toAppError(error);
  }
}

/** lstat(2) of a real path, or null when it (or a parent) does not exist. */
export async function lstatOrNull(real: string): Promise<Stats | null> {
  try {
    return await lstat(real);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw toAppError(error);
  }
}
