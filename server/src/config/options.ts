/**
 * Every configuration option in one table: its flag, its CABINET_* variable, its config-file key,
 * its type and default. The CLI's flags and help and the loader are built from this;
 * docs/configuration.md is written by hand, and options.test.ts fails when it misses an option or
 * names its flag or variable wrong.
 */
export type OptionType = 'string' | 'number' | 'boolean' | 'duration' | 'list';

export interface OptionSpec {
  /** Key in the config file and in ServerConfig. */
  key: keyof ServerConfig;
  flag: string;
  env: string;
  type: OptionType;
  default: string | number | boolean | undefined;
  description: string;
  /** Choices a string option accepts. */
  choices?: readonly string[];
}

export interface ServerConfig {
  address: string;
  port: number;
  root: string;
  data: string;
  database: string;
  baseURL: string;
  logLevel: string;
  logFormat: string;
  authMethod: string;
  authHeader: string;
  recaptchaHost: string;
  recaptchaKey: string;
  recaptchaSecret: string;
  /** Token lifetime in seconds. */
  tokenExpiration: number;
  enableExec: boolean;
  enableThumbs: boolean;
  resizePreview: boolean;
  imageProcessors: number;
  brandingName: string;
  brandingTheme: string;
  brandingFiles: string;
  adminUsername: string;
  adminPassword: string | undefined;
  /** Login and signup attempts allowed per address and per username within rateLimitWindow. */
  rateLimitMax: number;
  rateLimitWindow: number;
  /**
   * Addresses and CIDR ranges of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are
   * believed (docs/reverse-proxy.md); empty means the connection's address is the client's.
   */
  trustedProxies: string[];
  /** The web app's built files; defaults to web/dist of this checkout. */
  webDist: string;
  /** Seconds an unfinished resumable upload is kept after its last activity. */
  uploadExpiry: number;
  /** Seconds a command of the shell panel may run before it is stopped. */
  commandTimeout: number;
  /** Bytes of output a command of the shell panel may print before it is stopped. */
  commandOutputLimit: number;
  /** Seconds an event hook may run before it is stopped (and a before-hook fails). */
  hookTimeout: number;
  /** Keep the search index fresh by watching folders (untrusted mounts are found: docs/search.md). */
  searchWatch: boolean;
  /** Seconds between full reconciliations of the search index when folders are not watched. */
  searchReconcileInterval: number;
  /**
   * Seconds between reconciliations of the search index while the root crosses a mount whose
   * watches cannot be trusted (network, FUSE, overlay: docs/search.md).
   */
  untrustedReconcileInterval: number;
  /**
   * Where attempt counters, locks and upload leases live: `process` (this instance only),
   * `database` (shared by every instance on the database) or `auto` (database on PostgreSQL).
   */
  sharedState: string;
  /**
   * Server processes sharing the port (node:cluster); above 1, shared state defaults to the
   * database (docs/architecture.md, "Several cores").
   */
  workers: number;
  /** MiB of stat'ed folder children kept for listings of watched folders (0: no listing cache). */
  listingCache: number;
  /** PEM certificate chain file: with `key`, Cabinet serves HTTPS itself (reloaded on SIGHUP). */
  cert: string;
  /** PEM private key file of `cert`. */
  key: string;
  /** Origins allowed to show Cabinet's pages in a frame (CSP frame-ancestors); empty: none. */
  frameAncestors: string[];
  /** OpenID Connect single sign-on (docs/sso.md): the provider's issuer URL; empty turns it off. */
  oidcIssuer: string;
  oidcClientId: string;
  oidcClientSecret: string;
  /** Scopes asked for, space- or comma-separated. */
  oidcScopes: string;
  /** The claim that names the Cabinet user. */
  oidcUsernameClaim: string;
  /** The claim that lists the user's groups. */
  oidcGroupsClaim: string;
  /** Members of this group are administrators; empty leaves admin rights to Cabinet. */
  oidcAdminGroup: string;
  /** Unknown users are created from the user defaults on their first sign-in. */
  oidcAutoCreate: boolean;
  /** The claim that holds a new user's scope; empty: the scope of the user defaults. */
  oidcScopeClaim: string;
  /** The provider's name on the login page's button; empty: the issuer's host name. */
  oidcButtonLabel: string;
  /** Serve `GET /metrics` in Prometheus text format (docs/metrics.md). */
  metrics: boolean;
  /** Bearer token that opens /metrics from any address; empty: trusted addresses only. */
  metricsToken: string;
  /**
   * Addresses and CIDR ranges (and the word `loopback`) that may read /metrics without the token.
   */
  metricsAllow: string[];
}

export const OPTIONS: readonly OptionSpec[] = [
  {
    key: 'address',
    flag: 'address',
    env: 'CABINET_ADDRESS',
    type: 'string',
    default: '127.0.0.1',
    description: 'Address to listen on',
  },
  {
    key: 'port',
    flag: 'port',
    env: 'CABINET_PORT',
    type: 'number',
    default: 8080,
    description: 'Port to listen on (0 picks a free one)',
  },
  {
    key: 'root',
    flag: 'root',
    env: 'CABINET_ROOT',
    type: 'string',
    default: './data/files',
    description: 'Folder whose files are served',
  },
  {
    key: 'data',
    flag: 'data',
    env: 'CABINET_DATA',
    type: 'string',
    default: './data',
    description: 'Folder for the database, keys, caches and upload sessions',
  },
  {
    key: 'database',
    flag: 'database',
    env: 'CABINET_DATABASE',
    type: 'string',
    default: '',
    description: 'SQLite file path, or a postgres:// URL (default: <data>/cabinet.db)',
  },
  {
    key: 'baseURL',
    flag: 'base-url',
    env: 'CABINET_BASE_URL',
    type: 'string',
    default: '',
    description: 'URL prefix when served under a sub-path, e.g. /files-app',
  },
  {
    key: 'logLevel',
    flag: 'log-level',
    env: 'CABINET_LOG_LEVEL',
    type: 'string',
    default: 'info',
    description: 'Log level',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  },
  {
    key: 'logFormat',
    flag: 'log-format',
    env: 'CABINET_LOG_FORMAT',
    type: 'string',
    default: 'pretty',
    description: 'Log format',
    choices: ['pretty', 'json'],
  },
  {
    key: 'authMethod',
    flag: 'auth-method',
    env: 'CABINET_AUTH_METHOD',
    type: 'string',
    default: 'json',
    description: 'Authentication method',
    choices: ['json', 'proxy', 'noauth'],
  },
  {
    key: 'authHeader',
    flag: 'auth-header',
    env: 'CABINET_AUTH_HEADER',
    type: 'string',
    default: 'X-Forwarded-User',
    description: 'Header naming the user with the proxy method',
  },
  {
    key: 'recaptchaHost',
    flag: 'recaptcha-host',
    env: 'CABINET_RECAPTCHA_HOST',
    type: 'string',
    default: 'https://www.google.com',
    description:
      'Bot-check host (reCAPTCHA-compatible: serves /recaptcha/api.js and /recaptcha/api/siteverify)',
  },
  {
    key: 'recaptchaKey',
    flag: 'recaptcha-key',
    env: 'CABINET_RECAPTCHA_KEY',
    type: 'string',
    default: '',
    description: 'Bot-check site key (bot-check is on when key and secret are set)',
  },
  {
    key: 'recaptchaSecret',
    flag: 'recaptcha-secret',
    env: 'CABINET_RECAPTCHA_SECRET',
    type: 'string',
    default: '',
    description: 'Bot-check secret',
  },
  {
    key: 'tokenExpiration',
    flag: 'token-expiration',
    env: 'CABINET_TOKEN_EXPIRATION',
    type: 'duration',
    default: '2h',
    description: 'Token lifetime (e.g. 30m, 2h, 1d)',
  },
  {
    key: 'enableExec',
    flag: 'enable-exec',
    env: 'CABINET_ENABLE_EXEC',
    type: 'boolean',
    default: false,
    description: 'Enable the command runner and event hooks',
  },
  {
    key: 'enableThumbs',
    flag: 'thumbnails',
    env: 'CABINET_THUMBNAILS',
    type: 'boolean',
    default: true,
    description: 'Generate image thumbnails',
  },
  {
    key: 'resizePreview',
    flag: 'resize-preview',
    env: 'CABINET_RESIZE_PREVIEW',
    type: 'boolean',
    default: true,
    description: 'Resize large images for preview',
  },
  {
    key: 'imageProcessors',
    flag: 'image-processors',
    env: 'CABINET_IMAGE_PROCESSORS',
    type: 'number',
    default: 4,
    description: 'Concurrent image conversions',
  },
  {
    key: 'brandingName',
    flag: 'branding-name',
    env: 'CABINET_BRANDING_NAME',
    type: 'string',
    default: undefined,
    description: 'Instance name shown in the interface (saved to settings)',
  },
  {
    key: 'brandingTheme',
    flag: 'branding-theme',
    env: 'CABINET_BRANDING_THEME',
    type: 'string',
    default: undefined,
    description: 'Theme: light (empty) or dark (saved to settings)',
  },
  {
    key: 'brandingFiles',
    flag: 'branding-files',
    env: 'CABINET_BRANDING_FILES',
    type: 'string',
    default: undefined,
    description: 'Folder with custom.css and img/ overrides (saved to settings)',
  },
  {
    key: 'adminUsername',
    flag: 'admin-username',
    env: 'CABINET_ADMIN_USERNAME',
    type: 'string',
    default: 'admin',
    description: 'Name of the first administrator created on first start',
  },
  {
    key: 'adminPassword',
    flag: 'admin-password',
    env: 'CABINET_ADMIN_PASSWORD',
    type: 'string',
    default: undefined,
    description: 'Password of the first administrator (random and printed once if unset)',
  },
  {
    key: 'rateLimitMax',
    flag: 'rate-limit-max',
    env: 'CABINET_RATE_LIMIT_MAX',
    type: 'number',
    default: 10,
    description: 'Login/signup attempts per address and per username per window',
  },
  {
    key: 'rateLimitWindow',
    flag: 'rate-limit-window',
    env: 'CABINET_RATE_LIMIT_WINDOW',
    type: 'duration',
    default: '1m',
    description: 'Rate-limit window',
  },
  {
    key: 'trustedProxies',
    flag: 'trusted-proxies',
    env: 'CABINET_TRUSTED_PROXIES',
    type: 'list',
    default: '',
    description:
      'Reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For/-Proto are trusted',
  },
  {
    key: 'webDist',
    flag: 'web-dist',
    env: 'CABINET_WEB_DIST',
    type: 'string',
    default: '',
    description: 'Folder with the built web app (default: web/dist of this install)',
  },
  {
    key: 'uploadExpiry',
    flag: 'upload-expiry',
    env: 'CABINET_UPLOAD_EXPIRY',
    type: 'duration',
    default: '24h',
    description: 'How long an unfinished resumable upload is kept after its last activity',
  },
  {
    key: 'commandTimeout',
    flag: 'command-timeout',
    env: 'CABINET_COMMAND_TIMEOUT',
    type: 'duration',
    default: '10m',
    description: 'How long a command of the shell panel may run before it is stopped',
  },
  {
    key: 'commandOutputLimit',
    flag: 'command-output-limit',
    env: 'CABINET_COMMAND_OUTPUT_LIMIT',
    type: 'number',
    default: 10485760,
    description: 'Bytes of output a command of the shell panel may print before it is stopped',
  },
  {
    key: 'hookTimeout',
    flag: 'hook-timeout',
    env: 'CABINET_HOOK_TIMEOUT',
    type: 'duration',
    default: '1m',
    description: 'How long an event hook may run before it is stopped',
  },
  {
    key: 'searchWatch',
    flag: 'search-watch',
    env: 'CABINET_SEARCH_WATCH',
    type: 'boolean',
    default: true,
    description:
      'Keep the search index fresh by watching folders (off: it reconciles periodically); network, FUSE and overlay mounts are found and reconciled without turning it off',
  },
  {
    key: 'searchReconcileInterval',
    flag: 'search-reconcile-interval',
    env: 'CABINET_SEARCH_RECONCILE_INTERVAL',
    type: 'duration',
    default: '10m',
    description:
      'How often the search index is reconciled with the disk when folders cannot be watched',
  },
  {
    key: 'untrustedReconcileInterval',
    flag: 'untrusted-reconcile-interval',
    env: 'CABINET_UNTRUSTED_RECONCILE_INTERVAL',
    type: 'duration',
    default: '1m',
    description:
      "How often the search index is reconciled with the disk while the root crosses a network, FUSE or overlay mount (watches there miss other hosts' changes)",
  },
  {
    key: 'workers',
    flag: 'workers',
    env: 'CABINET_WORKERS',
    type: 'number',
    default: 1,
    description:
      'Server processes sharing the port, one per core at most (above 1, shared state is the database)',
  },
  {
    key: 'listingCache',
    flag: 'listing-cache',
    env: 'CABINET_LISTING_CACHE',
    type: 'number',
    default: 64,
    description:
      'MiB of folder listings kept in memory for watched folders, dropped on any change (0: off)',
  },
  {
    key: 'sharedState',
    flag: 'shared-state',
    env: 'CABINET_SHARED_STATE',
    type: 'string',
    default: 'auto',
    choices: ['auto', 'process', 'database'],
    description:
      'Where login counters, locks and upload leases live: process, database (several instances) or auto (database on PostgreSQL)',
  },
  {
    key: 'cert',
    flag: 'cert',
    env: 'CABINET_CERT',
    type: 'string',
    default: '',
    description: 'TLS certificate chain (PEM file); with --key, serve HTTPS (SIGHUP reloads both)',
  },
  {
    key: 'key',
    flag: 'key',
    env: 'CABINET_KEY',
    type: 'string',
    default: '',
    description: 'TLS private key (PEM file) of --cert',
  },
  {
    key: 'frameAncestors',
    flag: 'frame-ancestors',
    env: 'CABINET_FRAME_ANCESTORS',
    type: 'list',
    default: '',
    description:
      "Origins allowed to embed Cabinet's pages in a frame (comma-separated); default: none",
  },
  {
    key: 'oidcIssuer',
    flag: 'oidc-issuer',
    env: 'CABINET_OIDC_ISSUER',
    type: 'string',
    default: '',
    description:
      'OpenID Connect issuer URL: single sign-on is on when it and the client id are set',
  },
  {
    key: 'oidcClientId',
    flag: 'oidc-client-id',
    env: 'CABINET_OIDC_CLIENT_ID',
    type: 'string',
    default: '',
    description: 'OpenID Connect client id registered at the provider',
  },
  {
    key: 'oidcClientSecret',
    flag: 'oidc-client-secret',
    env: 'CABINET_OIDC_CLIENT_SECRET',
    type: 'string',
    default: '',
    description: 'OpenID Connect client secret (empty: a public client, PKCE only)',
  },
  {
    key: 'oidcScopes',
    flag: 'oidc-scopes',
    env: 'CABINET_OIDC_SCOPES',
    type: 'string',
    default: 'openid profile email',
    description: 'Scopes asked of the provider (openid is always added)',
  },
  {
    key: 'oidcUsernameClaim',
    flag: 'oidc-username-claim',
    env: 'CABINET_OIDC_USERNAME_CLAIM',
    type: 'string',
    default: 'preferred_username',
    description: 'Claim that names the Cabinet user',
  },
  {
    key: 'oidcGroupsClaim',
    flag: 'oidc-groups-claim',
    env: 'CABINET_OIDC_GROUPS_CLAIM',
    type: 'string',
    default: 'groups',
    description: "Claim that lists the user's groups",
  },
  {
    key: 'oidcAdminGroup',
    flag: 'oidc-admin-group',
    env: 'CABINET_OIDC_ADMIN_GROUP',
    type: 'string',
    default: '',
    description: 'Group whose members are administrators (empty: admin rights stay with Cabinet)',
  },
  {
    key: 'oidcAutoCreate',
    flag: 'oidc-auto-create',
    env: 'CABINET_OIDC_AUTO_CREATE',
    type: 'boolean',
    default: true,
    description: 'Create unknown users from the user defaults on their first single sign-on',
  },
  {
    key: 'oidcScopeClaim',
    flag: 'oidc-scope-claim',
    env: 'CABINET_OIDC_SCOPE_CLAIM',
    type: 'string',
    default: '',
    description:
      "Claim that holds a new user's scope, a folder under the root (empty: the user defaults)",
  },
  {
    key: 'oidcButtonLabel',
    flag: 'oidc-button-label',
    env: 'CABINET_OIDC_BUTTON_LABEL',
    type: 'string',
    default: '',
    description: 'Provider name on the login button "Sign in with …" (default: the issuer host)',
  },
  {
    key: 'metrics',
    flag: 'metrics',
    env: 'CABINET_METRICS',
    type: 'boolean',
    default: false,
    description:
      'Serve GET /metrics in Prometheus text format (trusted addresses or --metrics-token)',
  },
  {
    key: 'metricsToken',
    flag: 'metrics-token',
    env: 'CABINET_METRICS_TOKEN',
    type: 'string',
    default: '',
    description:
      'Bearer token that opens /metrics from any address (empty: trusted addresses only)',
  },
  {
    key: 'metricsAllow',
    flag: 'metrics-allow',
    env: 'CABINET_METRICS_ALLOW',
    type: 'list',
    default: 'loopback',
    description:
      'Addresses or CIDR ranges (comma-separated; `loopback` for 127.0.0.0/8 and ::1) that may read /metrics without the token',
  },
];
