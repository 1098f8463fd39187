import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import {
  effectiveMethod,
  formatExpires,
  isOffsetContentType,
  isSupportedVersion,
  parseContentLength,
  parseUploadLength,
  parseUploadMetadata,
  parseUploadOffset,
  uploadLocation,
} from './tus-codec.ts';

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).reason;
  }
  throw new Error('expected a 400');
}

describe('tus header parsing', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    [' 42 ', 42],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('accepts Upload-Length %j', (header, expected) => {
    expect(parseUploadLength(header)).toBe(expected);
  });

  it.each([
    ['', 'invalid Upload-Length'],
    ['-1', 'invalid Upload-Length'],
    ['+5', 'invalid Upload-Length'],
    ['1e3', 'invalid Upload-Length'],
    ['0x10', 'invalid Upload-Length'],
    ['12abc', 'invalid Upload-Length'],
    ['1.5', 'invalid Upload-Length'],
    ['9007199254740992', 'invalid Upload-Length'],
    ['99999999999999999999', 'invalid Upload-Length'],
  ])('refuses Upload-Length %j with 400', (header, reason) => {
    expect(reasonOf(() => parseUploadLength(header))).toBe(reason);
  });

  it('says what is missing when there is no Upload-Length', () => {
    expect(reasonOf(() => parseUploadLength(undefined))).toBe('missing Upload-Length');
    expect(reasonOf(() => parseUploadLength(undefined, '1'))).toBe(
      'deferred upload length not supported',
    );
  });

  it('parses Upload-Offset strictly', () => {
    expect(parseUploadOffset('0')).toBe(0);
    expect(parseUploadOffset('262144')).toBe(262144);
    expect(reasonOf(() => parseUploadOffset(undefined))).toBe('missing Upload-Offset');
    expect(reasonOf(() => parseUploadOffset('-3'))).toBe('invalid Upload-Offset');
    expect(reasonOf(() => parseUploadOffset('abc'))).toBe('invalid Upload-Offset');
  });

  it('reads Content-Length only when it is a plain number', () => {
    expect(parseContentLength('10')).toBe(10);
    expect(parseContentLength(undefined)).toBeUndefined();
    expect(parseContentLength('x')).toBeUndefined();
  });

  it('accepts only the offset content type, case-insensitively and without parameters', () => {
    expect(isOffsetContentType('application/offset+octet-stream')).toBe(true);
    expect(isOffsetContentType('Application/Offset+Octet-Stream')).toBe(true);
    expect(isOffsetContentType('application/octet-stream')).toBe(false);
    expect(isOffsetContentType('application/offset+octet-stream; charset=utf-8')).toBe(false);
    expect(isOffsetContentType(undefined)).toBe(false);
  });

  it('accepts version 1.0.0 or no Tus-Resumable header, and nothing else', () => {
    expect(isSupportedVersion('1.0.0')).toBe(true);
    expect(isSupportedVersion(undefined)).toBe(true);
    expect(isSupportedVersion('0.2.2')).toBe(false);
    expect(isSupportedVersion('2.0.0')).toBe(false);
    expect(isSupportedVersion('')).toBe(false);
  });
});

describe('Upload-Metadata', () => {
  it('decodes pairs, empty values and keys without values', () => {
    const pairs = parseUploadMetadata(
      'filename d29ybGRfZG9taW5hdGlvbl9wbGFuLnBkZg==,is_confidential,x ',
    );
    expect(pairs.get('filename')).toBe('world_domination_plan.pdf');
    expect(pairs.get('is_confidential')).toBe('');
    expect(pairs.get('x')).toBe('');
  });

  it('accepts a missing or blank header', () => {
    expect(parseUploadMetadata(undefined).size).toBe(0);
    expect(parseUploadMetadata('').size).toBe(0);
  });

  it.each([
    ['filename not base64!', 'invalid Upload-Metadata'],
    ['filename abc', 'invalid Upload-Metadata'],
    [',', 'invalid Upload-Metadata'],
    ['a  Zg==', 'invalid Upload-Metadata'],
    ['a Zg== extra', 'invalid Upload-Metadata'],
    ['k\u00e9y Zg==', 'invalid Upload-Metadata'],
    ['a Zg==,a Zg==', 'duplicate Upload-Metadata key'],
  ])('refuses %j', (header, reason) => {
    expect(reasonOf(() => parseUploadMetadata(header))).toBe(reason);
  });
});

describe('locations, dates and method overrides', () => {
  it('escapes every path segment and keeps the base URL', () => {
    expect(uploadLocation('', '/a b/c#?%.txt')).toBe('/api/tus/a%20b/c%23%3F%25.txt');
    expect(uploadLocation('/fb', '/x')).toBe('/fb/api/tus/x');
  });

  it('formats Upload-Expires as an HTTP date', () => {
    expect(formatExpires(Date.UTC(2014, 5, 25, 16, 0, 0))).toBe('Wed, 25 Jun 2014 16:00:00 GMT');
  });

  it('honours X-HTTP-Method-Override only on POST', () => {
    expect(effectiveMethod('POST', 'PATCH')).toBe('PATCH');
    expect(effectiveMethod('POST', 'delete')).toBe('DELETE');
    expect(effectiveMethod('POST', undefined)).toBe('POST');
    expect(effectiveMethod('PATCH', 'DELETE')).toBe('PATCH');
    expect(effectiveMethod('POST', 'TRACE')).toBeUndefined();
  });
});
