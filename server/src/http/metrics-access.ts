import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Who may read /metrics: the addresses of `--metrics-allow`, and holders of `--metrics-token`. */
export interface MetricsAccessOptions {
  /** Addresses, CIDR ranges and the word `loopback`. */
  allow: readonly string[];
  /** Empty: no token opens it. */
  token: string;
  /** Whether X-Forwarded-For is believed from some proxy (`--trusted-proxies` is set). */
  proxiesTrusted: boolean;
}

export type MetricsVerdict = 'allowed' | 'no-credentials' | 'wrong-token';

/**
 * The allow list as a BlockList (matched as Fastify's `trustProxy` matches --trusted-proxies:
 * single addresses and CIDR ranges, IPv4 and IPv6); an entry it cannot read stops the start-up
 * with its name rather than silently letting nobody, or everybody, in.
 */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = family === 4 ? 32 : 128;
    if (
      family === 0 ||
      extra !== undefined ||
      (bits !== undefined && (!Number.isInteger(bits) || bits < 0 || bits > max))
    ) {
      throw new Error(`metricsAllow: "${entry}" is not an address, a CIDR range or "loopback"`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, bits, type);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is matched as `10.0.0.1`. */
function plainAddress(ip: string): { address: string; type: 'ipv4' | 'ipv6' } | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  const family = isIP(ip);
  if (family === 0) return null;
  return { address: ip, type: family === 4 ? 'ipv4' : 'ipv6' };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Decides a /metrics request. A user's session (X-Auth, cookie, app password) counts for nothing
 * here: the figures describe the whole server, and a scraper holds no user account.
 */
export function metricsAccess(options: MetricsAccessOptions) {
  const list = addressList(options.allow);
  const token = options.token ? digest(options.token) : null;
  return (request: FastifyRequest): MetricsVerdict => {
    const authorization = request.headers.authorization ?? '';
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (bearer !== undefined) {
      // Compared as digests in constant time: the answer's timing tells nothing of the token.
      return token && timingSafeEqual(digest(bearer), token) ? 'allowed' : 'wrong-token';
    }
    // A request a proxy forwarded while no proxy is trusted comes from an unknown client: the
    // proxy's own address (often loopback) must not open the metrics to the whole internet.
    const forwarded =
      request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (forwarded && !options.proxiesTrusted) return 'no-credentials';
    const client = plainAddress(request.ip);
    if (client && list.check(client.address, client.type)) return 'allowed';
    return 'no-credentials';
  };
}
