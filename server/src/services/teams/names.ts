import { errors } from '../../errors.ts';

/** A group's name: 1–64 characters, no control characters, trimmed. */
export function checkGroupName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || Array.from(name).length > 64) {
    throw errors.badRequest('a group name has 1 to 64 characters');
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw errors.badRequest('a group name has no control characters');
  }
  return name;
}

/** A team folder's name in grantees' views: one path segment. */
export function checkMountName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || Array.from(name).length > 255) {
    throw errors.badRequest('a team folder name has 1 to 255 characters');
  }
  // eslint-disable-next-line no-control-regex
  if (name === '.' || name === '..' || /[/\\\u0000-\u001f\u007f]/.test(name)) {
    throw errors.badRequest('a team folder name is one folder name: no slash, not . or ..');
  }
  if (name.startsWith('.')) throw errors.badRequest('a team folder name does not start with a dot');
  return name;
}
