/**
 * The part of `oidc-provider` (a dev dependency that ships no types) the test helper uses: the
 * provider is a Koa application, so `callback()` is its Node request handler.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
