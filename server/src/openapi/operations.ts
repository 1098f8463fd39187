import * as z from 'zod/mini';
import * as protocol from '@cabinet/protocol';

/** One answer of an operation: its status's meaning and, for JSON, the protocol schema it follows. */
export interface Reply {
  description: string;
  /** A JSON body following this schema. */
  json?: z.ZodMiniType;
  /** Another media type (the body is described in words, or is a file). */
  type?: string;
  /** NDJSON: each line of the body follows this schema (`x-line-schema`). */
  lines?: z.ZodMiniType;
  /** Other media types the same status may answer with, when the request asks for them. */
  alternatives?: string[];
}

/**
 * A route's words for the OpenAPI document: what the route table cannot say. Method, path, path
 * parameters, the query and body schemas the route validates with and its guard come from the
 * route itself (route-table.ts).
 */
export interface OperationInfo {
  summary: string;
  description?: string;
  /** For a route registered for every method: the ones to document (others answer as said). */
  methods?: ('get' | 'post' | 'put')[];
  /** Routes without a guard of http/authenticate.ts: who may call them. */
  auth?: 'public' | 'share' | 'metrics' | 'previewTicket';
  /** A query the handler reads itself (not validated by the route's schema). */
  query?: z.ZodMiniType;
  /** A JSON body the service parses with this protocol schema (after its permission checks). */
  body?: z.ZodMiniType;
  /** A raw body (a file's bytes): its media type. */
  rawBody?: string;
  replies: Record<number, Reply>;
}

const json = (schema: z.ZodMiniType, description = 'OK'): Reply => ({ json: schema, description });
const text = (description: string, type = 'text/plain'): Reply => ({ description, type });
const file = (description = 'The file, or a zip/tar archive of a folder'): Reply => ({
  description,
  type: 'application/octet-stream',
});
const ok: Reply = text('OK (a plain-text status line)');
const accepted: Reply = text('Accepted: the user lacks the download permission (as filebrowser)');
const moved: Reply = { description: 'Moved permanently to the same path with a trailing slash' };
const noContent: Reply = { description: 'Done, no body' };

/** Query of `GET /api/oidc/login`: where to go once signed in. */
const OidcLoginQuery = z.object({ redirect: z.optional(z.string()) });
/** Query of `GET /api/events`: resume after this event (also the `Last-Event-ID` header). */
const EventsQuery = z.object({ lastEventId: z.optional(z.string()) });
/** Reply of `DELETE /api/trash`. */
const TrashEmptied = z.object({ removed: z.number() });
/** The 409 of a restore whose place is taken. */
const RestoreConflict = z.object({ code: z.literal(protocol.RESTORE_CONFLICT) });

/**
 * Every documented operation, keyed `METHOD url` with Fastify's url pattern (`ALL` for routes
 * registered with `app.all`). server/test/openapi.test.ts fails when a route has no entry here or
 * an entry has no route.
 */
export const OPERATIONS: Record<string, OperationInfo> = {
  // Health, metrics, served sites (outside /api)
  'ALL /health': {
    summary: 'Health of this instance (any method)',
    methods: ['get'],
    auth: 'public',
    replies: { 200: json(protocol.HealthReport) },
  },
  'ALL /api/health': {
    summary: 'Health of this instance, under /api (any method)',
    methods: ['get'],
    auth: 'public',
    replies: { 200: json(protocol.HealthReport) },
  },
  'GET /metrics': {
    summary: 'Prometheus metrics (with --metrics; trusted addresses or the metrics token)',
    auth: 'metrics',
    replies: {
      200: text('Prometheus text format 0.0.4 (docs/metrics.md)'),
      401: text('No token from an address outside the allow list'),
      403: text('Wrong token'),
      404: text('Metrics are off'),
    },
  },
  'GET /sites/:name': {
    summary: "A published site's home page",
    auth: 'public',
    replies: { 200: text('The page', 'text/html'), 404: text('No such site') },
  },
  'GET /sites/:name/*': {
    summary: "A published site's file",
    auth: 'public',
    replies: { 200: file('The file'), 404: text('No such file') },
  },

  // This document
  'GET /api/openapi.json': {
    summary: 'This OpenAPI document',
    auth: 'public',
    replies: {
      200: text('The OpenAPI 3.1 document', 'application/json'),
      304: { description: 'Not modified' },
    },
  },
  'GET /api/docs': {
    summary: 'This OpenAPI document as a page for people',
    auth: 'public',
    replies: { 200: text('The API reference', 'text/html') },
  },

  // Sign-in
  'ALL /api/login': {
    summary: 'Sign in with a user name and password: the token',
    description:
      'The body is JSON; with proxy or hook authentication the credentials come as configured. ' +
      'The reply is the signed token to send as X-Auth. A user with two-factor sign-in gives `code` too.',
    methods: ['post'],
    auth: 'public',
    body: protocol.LoginRequest,
    replies: {
      200: text('The token'),
      401: text('Wrong credentials, or a two-factor code is needed (X-Cabinet-Two-Factor)'),
      403: text('Forbidden'),
      429: text('Too many attempts; Retry-After says when to try again'),
    },
  },
  'ALL /api/signup': {
    summary: 'Create an account (when sign-up is on)',
    methods: ['post'],
    auth: 'public',
    body: protocol.SignupRequest,
    replies: {
      200: ok,
      405: text('Sign-up is off (as filebrowser)'),
      409: text('The user name is taken'),
    },
  },
  'ALL /api/renew': {
    summary: 'A fresh token for this session',
    methods: ['post'],
    replies: { 200: text('The new token') },
  },
  'POST /api/logout': { summary: 'End this session', replies: { 200: ok } },
  'GET /api/oidc/login': {
    summary: 'Begin single sign-on: redirects to the identity provider',
    auth: 'public',
    query: OidcLoginQuery,
    replies: { 302: { description: 'To the provider, or back to the login page with an error' } },
  },
  'GET /api/oidc/callback': {
    summary: "Single sign-on's return from the identity provider",
    auth: 'public',
    replies: { 302: { description: 'To the app, with a one-time code in the fragment' } },
  },
  'POST /api/oidc/exchange': {
    summary: "Trade single sign-on's one-time code for a token",
    auth: 'public',
    replies: { 200: text('The token'), 401: text('Unknown or used code') },
  },
  'POST /api/oidc/logout': {
    summary: "End this session and get the provider's logout address",
    replies: { 200: json(protocol.OidcLogoutResponse) },
  },
  'GET /api/two-factor': {
    summary: "The signed-in user's two-factor state",
    replies: { 200: json(protocol.TwoFactorStatus) },
  },
  'POST /api/two-factor/setup': {
    summary: 'Start two-factor enrolment: a new secret',
    replies: { 200: json(protocol.TwoFactorSetup) },
  },
  'POST /api/two-factor/enable': {
    summary: 'Finish enrolment with a code: the recovery codes',
    replies: { 200: json(protocol.TwoFactorRecoveryCodes), 403: text('Wrong code') },
  },
  'POST /api/two-factor/disable': {
    summary: 'Turn two-factor sign-in off (password and code)',
    replies: { 200: ok, 403: text('Wrong password or code') },
  },
  'GET /api/two-factor/policy': {
    summary: 'Whether two-factor sign-in is required',
    replies: { 200: json(protocol.TwoFactorPolicyBody) },
  },
  'PUT /api/two-factor/policy': {
    summary: 'Require two-factor sign-in, or not',
    replies: { 200: ok },
  },

  // Users, sessions, app passwords
  'GET /api/users': { summary: 'Every user', replies: { 200: json(protocol.UserList) } },
  'POST /api/users': {
    summary: 'Create a user',
    body: protocol.UserWriteRequest,
    replies: { 201: text('Created; Location names the new user'), 400: text('Bad user') },
  },
  'GET /api/users/:id': {
    summary: 'One user (yourself, or anyone for admins)',
    replies: { 200: json(protocol.User), 404: text('No such user') },
  },
  'PUT /api/users/:id': {
    summary: "Change a user's fields (`which` names them)",
    body: protocol.UserWriteRequest,
    replies: { 200: ok, 403: text('Not yours to change') },
  },
  'DELETE /api/users/:id': { summary: 'Delete a user', replies: { 200: ok } },
  'GET /api/users/:id/sessions': {
    summary: "A user's signed-in sessions",
    replies: { 200: json(protocol.SessionList) },
  },
  'DELETE /api/users/:id/sessions': {
    summary: "End a user's other sessions",
    replies: { 200: ok },
  },
  'DELETE /api/users/:id/sessions/:sid': { summary: 'End one session', replies: { 200: ok } },
  'GET /api/users/:id/two-factor': {
    summary: 'Whether a user has two-factor sign-in',
    replies: { 200: json(protocol.UserTwoFactor) },
  },
  'DELETE /api/users/:id/two-factor': {
    summary: "Reset a user's two-factor sign-in",
    replies: { 200: ok },
  },
  'GET /api/users/:id/groups': {
    summary: "A user's groups, by id (admins; docs/teams.md)",
    replies: { 200: json(z.array(z.number())), 403: text('Administrators only') },
  },
  'PUT /api/users/:id/groups': {
    summary: "Replace a user's groups (admins)",
    body: protocol.UserGroupsRequest,
    replies: { 200: json(z.array(z.number())), 403: text('Administrators only') },
  },
  'GET /api/groups': {
    summary: 'Every group with its members (admins; docs/teams.md)',
    replies: { 200: json(protocol.GroupList), 403: text('Administrators only') },
  },
  'POST /api/groups': {
    summary: 'Create a group',
    body: protocol.GroupWriteRequest,
    replies: { 201: json(protocol.Group), 400: text('Bad or taken name'), 403: text('Admins') },
  },
  'PUT /api/groups/:id': {
    summary: "Change a group's name and members",
    body: protocol.GroupWriteRequest,
    replies: { 200: json(protocol.Group), 404: text('No such group') },
  },
  'DELETE /api/groups/:id': {
    summary: 'Delete a group: its grants end for its members at once',
    replies: { 200: ok },
  },
  'GET /api/team-folders': {
    summary: 'Every team folder with its grantees (admins; docs/teams.md)',
    replies: { 200: json(protocol.TeamFolderList), 403: text('Administrators only') },
  },
  'POST /api/team-folders': {
    summary: 'Grant a folder of the root to users and groups',
    body: protocol.TeamFolderWriteRequest,
    replies: { 201: json(protocol.TeamFolder), 400: text('Bad name, path or grantee') },
  },
  'PUT /api/team-folders/:id': {
    summary: "Change a team folder's name, path, grantees, access or quota",
    body: protocol.TeamFolderWriteRequest,
    replies: { 200: json(protocol.TeamFolder), 404: text('No such team folder') },
  },
  'DELETE /api/team-folders/:id': {
    summary: 'Revoke a team folder (its files stay where they are)',
    replies: { 200: ok },
  },
  'GET /api/people-shares': {
    summary: 'Your shares with people; with `path`, who has access to that item',
    query: z.object({ path: z.optional(z.string()) }),
    replies: { 200: json(protocol.PeopleShareList), 403: text('No share permission') },
  },
  'POST /api/people-shares': {
    summary: 'Share an item of yours with users and groups',
    body: protocol.PeopleShareWriteRequest,
    replies: { 201: json(protocol.PeopleShare), 400: text('Bad path or grantee') },
  },
  'PUT /api/people-shares/:id': {
    summary: "Change a share's grantees, access or expiry (its owner or admins)",
    body: protocol.PeopleShareWriteRequest,
    replies: { 200: json(protocol.PeopleShare), 404: text('No such share') },
  },
  'DELETE /api/people-shares/:id': {
    summary: 'Revoke a share with people',
    replies: { 200: ok },
  },
  'GET /api/shared-with-me': {
    summary: 'Team folders and shares granted to you, with where they are in your view',
    replies: { 200: json(protocol.SharedWithMeList) },
  },
  'POST /api/shared-with-me/:kind/:id/leave': {
    summary: 'Leave a team folder or a share with people (`kind`: team or people)',
    replies: { 200: ok, 404: text('Not granted to you') },
  },
  'GET /api/people': {
    summary: 'Users and groups matching `q`, for the share dialog (at most 20)',
    query: z.object({ q: z.optional(z.string()) }),
    replies: { 200: json(protocol.PersonMatchList), 403: text('No share permission') },
  },
  'GET /api/app-passwords': {
    summary: "App passwords (yours, or a user's for admins)",
    replies: { 200: json(z.array(protocol.AppPassword)) },
  },
  'POST /api/app-passwords': {
    summary: 'Create an app password for scripts and WebDAV: shown once',
    replies: { 201: json(protocol.AppPasswordCreated, 'Created') },
  },
  'DELETE /api/app-passwords/:id': { summary: 'Revoke an app password', replies: { 200: ok } },

  // Settings
  'GET /api/settings': { summary: 'Global settings', replies: { 200: json(protocol.Settings) } },
  'PUT /api/settings': {
    summary: 'Replace the global settings',
    body: protocol.SettingsUpdate,
    replies: { 200: ok, 400: text('A field is missing or wrong') },
  },

  // Files
  'ALL /api/resources': {
    summary: 'Redirect to /api/resources/',
    methods: ['get'],
    auth: 'public',
    replies: { 301: moved },
  },
  'GET /api/resources/*': {
    summary: "A folder's listing or a file's info",
    description:
      'A folder answers its entries (`?format=compact` for NDJSON); a file its info, with the ' +
      'content of a text file and the checksums asked for. `X-Encoding: true` asks for the raw bytes.',
    replies: {
      200: {
        ...json(protocol.Resource),
        alternatives: [protocol.COMPACT_LISTING_TYPE, 'application/octet-stream'],
      },
      202: accepted,
      404: text('No such file or folder'),
    },
  },
  'POST /api/resources/*': {
    summary: 'Upload a file, or create a folder (path ending in /)',
    rawBody: 'application/octet-stream',
    replies: { 200: ok, 409: text('Exists and override is not set') },
  },
  'PUT /api/resources/*': {
    summary: "Replace a file's content",
    rawBody: 'application/octet-stream',
    replies: { 200: ok },
  },
  'PATCH /api/resources/*': {
    summary: 'Rename, move or copy (action, destination)',
    replies: { 200: ok, 409: text('The destination exists') },
  },
  'DELETE /api/resources/*': {
    summary: 'Delete a file or folder (to the trash when it is on)',
    replies: { 204: noContent },
  },
  'GET /api/resources/recursive/*': {
    summary: 'Every entry below a folder',
    replies: { 200: json(protocol.RecursiveListing) },
  },
  'ALL /api/usage': {
    summary: 'Redirect to /api/usage/',
    methods: ['get'],
    auth: 'public',
    replies: { 301: moved },
  },
  'GET /api/usage/*': {
    summary: 'Size and use of the volume holding a folder',
    replies: { 200: json(protocol.Usage) },
  },
  'GET /api/raw': { summary: 'Redirect to /api/raw/', auth: 'public', replies: { 301: moved } },
  'GET /api/raw/*': {
    summary: 'Download a file, or a folder or selection as an archive',
    replies: { 200: file(), 206: file('Part of the file (Range)'), 202: accepted },
  },
  'GET /api/preview/:size/*': {
    summary: 'A picture of a file, an office document as PDF, media facts, or a video remuxed',
    description:
      '`size` is `thumb` or `big` (a WebP picture of an image, video, photo, document or song), ' +
      '`pdf` (an office document converted to PDF), `info` (camera, exposure, duration and tags ' +
      'as JSON; with `start`, where a remux from those seconds begins) or `play` (a video remuxed to fragmented MP4 from `start` seconds; 415 with a ' +
      'JSON reason when the browser cannot play its codecs). docs/previews.md.',
    replies: {
      200: file('The picture, the PDF, the facts (JSON) or the MP4 stream'),
      202: accepted,
      415: text('No picture can be made of this file (or its codecs cannot be played)'),
      501: text('The tool that makes this kind of picture is not installed'),
    },
  },
  'GET /api/subtitle/*': {
    summary: 'A subtitle file as WebVTT',
    replies: { 200: text('The subtitles', 'text/vtt'), 202: accepted },
  },
  'GET /api/search/*': {
    summary: 'Search below a folder: one JSON hit per line as found',
    replies: {
      200: {
        ...text('One JSON object per line (x-line-schema), sent as found'),
        lines: protocol.SearchHit,
      },
    },
  },
  'ALL /api/search': {
    summary: 'Redirect to /api/search/',
    methods: ['get'],
    auth: 'public',
    replies: { 301: moved },
  },
  'GET /api/quota': {
    summary: "The signed-in user's quota and use",
    replies: { 200: json(protocol.QuotaUsage) },
  },
  'GET /api/events': {
    summary: 'Server-sent events: changes to the files you see, job progress',
    query: EventsQuery,
    replies: { 200: text('The event stream', 'text/event-stream') },
  },
  'GET /api/command/*': {
    summary: 'Run a shell command (WebSocket)',
    description: 'Upgrade to a WebSocket, send one line: the output comes back line by line.',
    replies: { 101: { description: 'Switching to WebSocket' }, 426: text('Upgrade required') },
  },
  'GET /api/command-runs': {
    summary: 'The latest command runs',
    replies: { 200: json(protocol.CommandRunList) },
  },

  // Resumable uploads (tus 1.0.0)
  'OPTIONS /api/tus': {
    summary: "tus: the server's capabilities",
    auth: 'public',
    replies: { 204: noContent },
  },
  'OPTIONS /api/tus/*': {
    summary: "tus: the server's capabilities",
    auth: 'public',
    replies: { 204: noContent },
  },
  'POST /api/tus/*': {
    summary: 'tus: create a resumable upload of this file',
    replies: { 201: { description: 'Created; Location is the upload URL' } },
  },
  'HEAD /api/tus/*': {
    summary: 'tus: the offset an upload has reached (Upload-Offset)',
    replies: { 200: { description: 'Upload-Offset and Upload-Length headers' } },
  },
  'GET /api/tus/*': {
    summary: "An upload's offset and length as JSON",
    replies: { 200: json(protocol.TusUploadState) },
  },
  'PATCH /api/tus/*': {
    summary: 'tus: send the next chunk',
    rawBody: 'application/offset+octet-stream',
    replies: { 204: { description: 'Stored; Upload-Offset is the new offset' } },
  },
  'DELETE /api/tus/*': { summary: 'tus: give an upload up', replies: { 204: noContent } },

  // Shares
  'GET /api/shares': {
    summary: 'Your share links (every link for admins)',
    replies: { 200: json(protocol.ShareList) },
  },
  'GET /api/share/*': {
    summary: 'The share links of one path',
    replies: { 200: json(protocol.ShareList) },
  },
  'POST /api/share/*': {
    summary: 'Create a share link',
    body: protocol.ShareCreateRequest,
    replies: { 200: json(protocol.Share) },
  },
  'DELETE /api/share/*': {
    summary: 'Delete a share link (the path is its hash)',
    replies: { 200: ok },
  },
  'GET /api/public/share/*': {
    summary: "A share link's file info or folder listing",
    auth: 'share',
    replies: { 200: json(protocol.Resource), 401: text('The link needs its password') },
  },
  'GET /api/public/dl/*': {
    summary: "Download a share link's file or folder",
    auth: 'share',
    replies: { 200: file() },
  },
  'POST /api/public/upload/*': {
    summary: 'Upload into a file-request link',
    auth: 'share',
    rawBody: 'application/octet-stream',
    replies: { 200: json(protocol.PublicUploadReply) },
  },

  // Trash
  'GET /api/trash': {
    summary: 'Deleted items (yours; admins may ask for others)',
    replies: { 200: json(protocol.TrashList) },
  },
  'DELETE /api/trash': { summary: 'Empty the trash', replies: { 200: json(TrashEmptied) } },
  'GET /api/trash/settings': {
    summary: 'Trash settings',
    replies: { 200: json(protocol.TrashSettings) },
  },
  'PUT /api/trash/settings': {
    summary: 'Change the trash settings (admins)',
    body: protocol.TrashSettings,
    replies: { 200: json(protocol.TrashSettings) },
  },
  'GET /api/trash/:id/raw': {
    summary: 'Download a deleted file',
    replies: { 200: file(), 202: accepted },
  },
  'POST /api/trash/:id/restore': {
    summary: 'Restore a deleted item',
    body: protocol.TrashRestoreBody,
    replies: {
      200: json(protocol.TrashRestoreReply),
      409: json(RestoreConflict, 'Its place is taken: ask again with a resolution'),
    },
  },
  'DELETE /api/trash/:id': {
    summary: 'Delete an item for good (its owner or admins; docs/teams.md)',
    replies: { 204: noContent },
  },

  // Audit
  'GET /api/audit': {
    summary: 'The audit log, a page at a time',
    replies: { 200: json(protocol.AuditPage) },
  },
  'GET /api/audit.csv': {
    summary: 'The audit log as CSV',
    replies: { 200: text('CSV', 'text/csv') },
  },
  'GET /api/audit/settings': {
    summary: 'Audit settings',
    replies: { 200: json(protocol.AuditSettings) },
  },
  'PUT /api/audit/settings': {
    summary: 'Change the audit settings',
    body: protocol.AuditSettings,
    replies: { 200: json(protocol.AuditSettings) },
  },

  // File jobs
  'POST /api/jobs': {
    summary: 'Start a copy, move or delete job',
    replies: { 202: json(protocol.FileJobCreated, 'Accepted') },
  },
  'GET /api/jobs': { summary: 'Your jobs', replies: { 200: json(z.array(protocol.FileJob)) } },
  'GET /api/jobs/:id': { summary: 'One job', replies: { 200: json(protocol.FileJob) } },
  'POST /api/jobs/:id/cancel': {
    summary: 'Cancel a job',
    replies: { 200: json(protocol.FileJob) },
  },
  'POST /api/jobs/:id/retry': {
    summary: 'Retry a failed job',
    replies: { 200: json(protocol.FileJob) },
  },
  'POST /api/jobs/:id/answer': {
    summary: "Answer a job's conflict question",
    replies: { 200: json(protocol.FileJob) },
  },

  // Static sites
  'GET /api/sites': {
    summary: 'Sites you may edit (`?all=1`: every site, admins)',
    replies: { 200: json(z.union([protocol.UserSiteList, z.array(protocol.Site)])) },
  },
  'POST /api/sites': { summary: 'Create a site', replies: { 201: json(protocol.Site, 'Created') } },
  'PUT /api/sites/:name': { summary: 'Change a site', replies: { 200: json(protocol.Site) } },
  'DELETE /api/sites/:name': { summary: 'Delete a site', replies: { 204: noContent } },
  'GET /api/sites/:name/posts': {
    summary: "A site's posts",
    replies: { 200: json(protocol.PostList) },
  },
  'POST /api/sites/:name/posts': {
    summary: 'Create a post',
    replies: { 201: json(protocol.Post, 'Created') },
  },
  'GET /api/sites/:name/archetypes': {
    summary: "A site's archetypes (post templates)",
    replies: { 200: json(protocol.ArchetypeList) },
  },
  'POST /api/sites/:name/preview': {
    summary: 'Build a preview of a post',
    replies: { 200: json(protocol.PostPreview) },
  },
  'GET /api/sites/:name/preview/:id/*': {
    summary: "A preview's file (the id is its ticket)",
    auth: 'previewTicket',
    replies: { 200: file('The file'), 404: text('No such preview') },
  },
  'POST /api/sites/:name/publish': {
    summary: 'Publish a post',
    replies: { 200: json(protocol.PostActionResult) },
  },
  'POST /api/sites/:name/unpublish': {
    summary: 'Unpublish a post',
    replies: { 200: json(protocol.PostActionResult) },
  },
  'POST /api/sites/:name/schedule': {
    summary: 'Publish a post later',
    replies: { 200: json(protocol.PostActionResult) },
  },
  'DELETE /api/sites/:name/schedule': {
    summary: "Cancel a post's scheduled publication",
    replies: { 200: json(protocol.PostActionResult) },
  },
  'POST /api/sites/:name/build': {
    summary: 'Build the site',
    replies: { 200: json(protocol.SiteBuild) },
  },

  // Operations
  'GET /api/memory': {
    summary: 'Memory of the process and its caches',
    replies: { 200: json(protocol.MemoryReport) },
  },
};

/**
 * Routes that are not part of the API the document describes, with why. The coverage check
 * (coverage.ts) skips them.
 */
export const NOT_DOCUMENTED: Record<string, string> = {
  'OPTIONS /dav': 'WebDAV (docs/webdav.md)',
  'ALL /dav': 'WebDAV (docs/webdav.md)',
  'ALL /dav/*': 'WebDAV (docs/webdav.md)',
  'GET /': "the web app's page",
  'GET /*': "the web app's pages",
  'GET /static/*': "the web app's files",
  'ALL /api/*': 'the answer of unknown API paths: 404, or 405 on a known path',
};
