import { describe, expect, it } from 'vitest';
import { PublicShareQuery, RawDownloadQuery } from './index.ts';
import { TransferQuery } from './resource-requests.ts';
import { SearchQuery } from './search.ts';
import { TusCreateQuery } from './tus.ts';

/** What the query-string parser hands over: strings, arrays for repeated keys, no prototype. */
function query(entries: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.assign(Object.create(null) as Record<string, string | string[]>, entries);
}

describe('request query schemas', () => {
  it('read flags as true only for the exact spelling "true"', () => {
    const cases: [Record<string, string | string[]>, boolean][] = [
      [{}, false],
      [{ override: 'true' }, true],
      [{ override: 'TRUE' }, false],
      [{ override: '1' }, false],
      [{ override: '' }, false],
      [{ override: ['true', 'false'] }, true],
    ];
    for (const [entries, expected] of cases) {
      expect(TransferQuery.parse(query({ action: 'copy', ...entries })).override).toBe(expected);
    }
  });

  it('take the first value of a repeated key and keep absent text fields absent', () => {
    const parsed = TransferQuery.parse(query({ action: ['rename', 'copy'], rename: 'true' }));
    expect(parsed).toEqual({ action: 'rename', override: false, rename: true });
  });

  it('accept any text, so that refusals come from the service after the session guard', () => {
    expect(TransferQuery.safeParse(query({ action: 'explode', destination: '%zz' })).success).toBe(
      true,
    );
    expect(RawDownloadQuery.safeParse(query({ algo: 'rar', files: ',,' })).success).toBe(true);
  });

  it('keep the link token of downloads and the share token of public links', () => {
    expect(RawDownloadQuery.parse(query({ auth: 'abc', inline: 'true' }))).toEqual({
      auth: 'abc',
      inline: true,
    });
    expect(PublicShareQuery.parse(query({ token: 't', auth: 'a' }))).toMatchObject({
      token: 't',
      auth: 'a',
    });
  });

  it('give search an empty query when none is sent', () => {
    expect(SearchQuery.parse(query({}))).toEqual({ query: '' });
    expect(SearchQuery.parse(query({ query: ['a', 'b'] }))).toEqual({ query: 'a' });
  });

  it('let tus creation override with "true" or "1"', () => {
    expect(TusCreateQuery.parse(query({ override: '1' })).override).toBe(true);
    expect(TusCreateQuery.parse(query({ override: 'true' })).override).toBe(true);
    expect(TusCreateQuery.parse(query({ override: 'yes' })).override).toBe(false);
  });
});
