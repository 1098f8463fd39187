import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { addressList, metricsAccess } from './metrics-access.ts';

function request(ip: string, headers: Record<string, string> = {}): FastifyRequest {
  return { ip, headers } as unknown as FastifyRequest;
}

describe('metrics access', () => {
  it('matches addresses, CIDR ranges, loopback and IPv4-mapped IPv6 clients', () => {
    const decide = metricsAccess({
      allow: ['loopback', '10.0.0.0/8', '2001:db8::/32', '192.0.2.7'],
      token: '',
      proxiesTrusted: false,
    });
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.9.8.7',
      '2001:db8::5',
      '192.0.2.7',
    ]) {
      expect(decide(request(ip)), ip).toBe('allowed');
    }
    for (const ip of ['192.0.2.8', '11.0.0.1', '2001:db9::1', '::ffff:11.0.0.1']) {
      expect(decide(request(ip)), ip).toBe('no-credentials');
    }
  });

  it('stops the start with the entry it cannot read', () => {
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x']) {
      expect(() => addressList([bad]), bad).toThrow(`"${bad}"`);
    }
  });

  it('takes only the exact token, and no token when none is set', () => {
    const withToken = metricsAccess({ allow: [], token: 'sesame', proxiesTrusted: false });
    const bearer = (value: string) => request('203.0.113.1', { authorization: `Bearer ${value}` });
    expect(withToken(bearer('sesame'))).toBe('allowed');
    expect(withToken(bearer('sesame2'))).toBe('wrong-token');
    expect(withToken(request('203.0.113.1', { authorization: 'Basic c2VzYW1l' }))).toBe(
      'no-credentials',
    );
    const without = metricsAccess({ allow: ['loopback'], token: '', proxiesTrusted: false });
    // An empty token set must not open it to anyone sending some bearer token.
    expect(without(request('203.0.113.1', { authorization: 'Bearer x' }))).toBe('wrong-token');
  });
});
