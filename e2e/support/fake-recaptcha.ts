import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The widget script: a real checkbox rendered explicitly into the container, answering
 * "solved-<sitekey>" once ticked, like reCAPTCHA's explicit rendering API.
 */
const WIDGET_SCRIPT = `
window.grecaptcha = (() => {
  const widgets = [];
  return {
    render(container, params) {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      label.append(box, " I'm not a robot");
      container.append(label);
      widgets.push({ box, key: params.sitekey });
      return widgets.length - 1;
    },
    getResponse(id = 0) {
      const w = widgets[id];
      return w && w.box.checked ? 'solved-' + w.key : '';
    },
    reset(id = 0) {
      const w = widgets[id];
      if (w) w.box.checked = false;
    },
  };
})();
`;

export interface FakeRecaptcha {
  /** http://127.0.0.1:<port>: use as the bot-check host. */
  url: string;
  /** Responses the server asked to verify, in order. */
  verified: string[];
  close(): Promise<void>;
}

/**
 * A reCAPTCHA-compatible host on 127.0.0.1: serves /recaptcha/api.js and answers
 * /recaptcha/api/siteverify with success only for the expected secret and a solved widget.
 */
export async function startFakeRecaptcha(siteKey: string, secret: string): Promise<FakeRecaptcha> {
  const verified: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/recaptcha/api.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(WIDGET_SCRIPT);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/recaptcha/api/siteverify') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const answer = form.get('response') ?? '';
        verified.push(answer);
        const success = form.get('secret') === secret && answer === `solved-${siteKey}`;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success }));
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    verified,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
