/**
 * nginx as the load balancer in front of Cabinet instances: the `upstream`/`server` part is the one
 * docs/deploy.md gives as its example (with production names and TLS there), so the benchmark runs
 * the documented configuration; around it the runner adds what a throw-away nginx needs (its own
 * prefix, pid and temp folders, foreground, loopback only).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, launchNginx, nginxVersion, type RunningServer } from './servers.ts';

export interface BalancerSite {
  /** nginx `listen` value, e.g. `127.0.0.1:8000`. */
  listen: string;
  /** `host:port` of every Cabinet instance. */
  upstreams: readonly string[];
}

/**
 * The http-level directives of a balancer for Cabinet (docs/deploy.md explains each line):
 * round robin over the instances with idle connections kept open to them, request and response
 * bodies streamed, the command socket's upgrade passed on, the client's address and scheme forwarded.
 */
export function balancerHttpConfig({ listen, upstreams }: BalancerSite): string {
  return `
map $http_upgrade $connection_upgrade {
  default upgrade;
  ''      '';
}

upstream cabinet {
${upstreams.map((u) => `  server ${u};`).join('\n')}
  keepalive 32;
}

server {
  listen ${listen};

  client_max_body_size 0;
  proxy_request_buffering off;
  proxy_buffering off;
  proxy_buffer_size 64k;
  proxy_buffers 4 64k;

  proxy_http_version 1.1;
  proxy_set_header Host $http_host;
  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
  proxy_set_header X-Forwarded-Proto $scheme;
  proxy_set_header Upgrade $http_upgrade;
  proxy_set_header Connection $connection_upgrade;

  proxy_read_timeout 5m;
  proxy_send_timeout 5m;
  send_timeout 5m;
  proxy_next_upstream error timeout http_502 http_503;

  location / {
    proxy_pass http://cabinet;
  }

  location /api/command/ {
    proxy_pass http://cabinet;
    proxy_read_timeout 15m;
  }
}
`;
}

export interface BalancerOptions {
  upstreams: readonly string[];
  workers: number;
}

export interface RunningBalancer extends RunningServer {
  /** The whole nginx.conf it runs with (written into the results). */
  config: string;
}

/** Starts nginx in the foreground as a balancer over `upstreams`; resolves once /health answers. */
export async function startBalancer(options: BalancerOptions): Promise<RunningBalancer> {
  if (!nginxVersion())
    throw new Error('nginx is not installed: apt-get install -y nginx (see docs/benchmarks.md)');
  const port = await freePort();
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-balancer-'));
  const isRoot = process.getuid?.() === 0;
  const config = `
${isRoot ? 'user root;' : ''}
daemon off;
master_process on;
worker_processes ${options.workers};
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  # The client sends every request of a pass on one connection.
  keepalive_requests 100000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${balancerHttpConfig({ listen: `127.0.0.1:${port}`, upstreams: options.upstreams })}
}
`;
  return { name: 'balancer', ...(await launchNginx(prefix, config, port, '/health')), config };
}
