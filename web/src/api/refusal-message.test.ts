import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../i18n/locales/en.json';
import { ApiError, isUnexpected } from './api-error.ts';

beforeAll(async () => {
  await i18next.init({
    resources: { en: { translation: en } },
    lng: 'en',
    interpolation: { escapeValue: false },
  });
});

describe('refusal messages', () => {
  it.each([
    [
      '400 Bad Request (the current password is incorrect)\n',
      400,
      'The current password is incorrect.',
    ],
    [
      '400 Bad Request (password is too short, minimum length is 12)\n',
      400,
      'The password is too short: use at least 12 characters.',
    ],
    [
      '400 Bad Request (source is parent)\n',
      400,
      'A folder cannot be moved or copied into itself.',
    ],
    ['400 Bad Request (something new)\n', 400, 'The server could not accept this: something new.'],
    ['400 Bad Request\n', 400, 'The server could not accept this request.'],
    ['403 Forbidden\n', 403, "You don't have permissions to access this."],
    ['404 Not Found\n', 404, "This location can't be reached."],
    ['409 Conflict\n', 409, 'An item with this name already exists there.'],
    ['429 Too Many Requests\n', 429, 'Too many attempts. Wait a moment and try again.'],
    ['500 Internal Server Error\n', 500, 'Something really went wrong.'],
    ['502 Bad Gateway\n', 502, 'Something really went wrong.'],
    [
      '507 Insufficient Storage (The disk is full: there is no room left for this)\n',
      507,
      'The disk is full: there is no room left for this.',
    ],
    [
      '507 Insufficient Storage (This would exceed your quota: 9.5 GiB of 10 GiB used)\n',
      507,
      'This would exceed your quota: 9.5 GiB of 10 GiB used',
    ],
  ])('says %j as a sentence for people', (body, status, sentence) => {
    const error = new ApiError(status, body);
    expect(error.message).toBe(sentence);
    expect(error.message).not.toMatch(/^\d{3}/);
    // The server's own words stay available for logs.
    expect(error.detail).toBe(body);
  });

  it('offers "Report issue" only for failures that are not the user\'s doing', () => {
    expect(isUnexpected(new ApiError(400, '400 Bad Request (password is too easy)'))).toBe(false);
    expect(isUnexpected(new ApiError(403, '403 Forbidden'))).toBe(false);
    expect(isUnexpected(new ApiError(409, '409 Conflict'))).toBe(false);
    expect(isUnexpected(new ApiError(500, '500 Internal Server Error'))).toBe(true);
    expect(
      isUnexpected(
        new ApiError(
          507,
          '507 Insufficient Storage (this would exceed your quota: 3 KiB of 10 KiB used)',
        ),
      ),
    ).toBe(false);
    expect(isUnexpected(new ApiError(0, 'Failed to fetch', 'network'))).toBe(true);
    expect(new ApiError(0, 'Failed to fetch', 'network').message).toBe(
      'The server cannot be reached. Check your connection and try again.',
    );
  });
});
