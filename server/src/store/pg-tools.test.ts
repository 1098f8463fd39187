import { describe, expect, it } from 'vitest';
import { libpqTarget } from './pg-tools.ts';

describe('libpqTarget', () => {
  it('moves the password out of the URL and drops pool_size, which libpq refuses', () => {
    expect(libpqTarget('postgres://cab:s%40cret@db.example:5433/cabinet?pool_size=4')).toEqual({
      dbname: 'postgres://cab@db.example:5433/cabinet',
      env: { PGPASSWORD: 's@cret' },
    });
    expect(
      libpqTarget('postgresql://cab@/cabinet?host=/run/postgresql&pool_size=2&sslmode=require'),
    ).toEqual({
      dbname: 'postgresql://cab@/cabinet?host=/run/postgresql&sslmode=require',
      env: {},
    });
  });
});
