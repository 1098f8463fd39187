// Lint holds the project's boundaries: node:fs only in the modules allowed to touch disk, the
// server's layers (docs/architecture.md), no web import from server, no floating promises, no
// focused tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const FS_MODULES = ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'];

/**
 * One server layer's import boundary (docs/architecture.md): relative imports that step into any
 * of the `forbidden` top folders of server/src are errors. The rule is one block per folder because
 * flat config replaces `no-restricted-imports` per file rather than merging it, so the block also
 * repeats the node:fs restriction where that folder has it. Unit tests beside the code may import
 * what they test.
 */
function serverLayer(folder, forbidden, { fsAllowed = false, patterns = [], ignores = [] } = {}) {
  return {
    files: [`server/src/${folder}/**/*.ts`],
    ignores: ['server/src/**/*.test.ts', ...ignores],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: fsAllowed ? [] : FS_MODULES,
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
              message: `server/src/${folder}/ may not import ${forbidden.join('/, ')}/ (docs/architecture.md).`,
            },
            ...patterns,
          ],
        },
      ],
    },
  };
}
/** The web app never imports server code. */
const webNeverImportsServer = {
  group: ['**/server/**', '@cabinet/server'],
  message: 'The web app talks to the server over HTTP only.',
};

const noFocusedTests = {
  selector:
    "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']",
  message: 'No focused tests.',
};

/** Calls of node:fs's and node:child_process's blocking forms, by name or as a method. */
const SYNC_NAMES =
  '/^(access|appendFile|chmod|chown|close|copyFile|cp|exists|fchmod|fchown|fdatasync|fstat|fsync|ftruncate|futimes|lchown|link|lstat|lutimes|mkdir|mkdtemp|open|opendir|read|readdir|readFile|readlink|readv|realpath|rename|rm|rmdir|stat|statfs|symlink|truncate|unlink|utimes|write|writeFile|writev|exec|execFile|spawn)Sync$/';
const syncMessage =
  'No synchronous file-system call on the main thread once the server runs: use node:fs/promises; start-up modules are listed in eslint.config.js.';
const noSyncCalls = [
  { selector: `CallExpression[callee.name=${SYNC_NAMES}]`, message: syncMessage },
  { selector: `CallExpression[callee.property.name=${SYNC_NAMES}]`, message: syncMessage },
  { selector: `MemberExpression[object.name=${SYNC_NAMES}]`, message: syncMessage },
];

/**
 * Programs are run through server/src/process/ (argv only, limits, typed results; issue 44): no
 * other module imports node:child_process.
 */
const CHILD_PROCESS = '/^(node:)?child_process$/';
const childProcessMessage =
  'Run programs through server/src/process/ (argv only, limits, typed results; docs/architecture.md).';
const noChildProcess = [
  { selector: `ImportDeclaration[source.value=${CHILD_PROCESS}]`, message: childProcessMessage },
  { selector: `ImportExpression[source.value=${CHILD_PROCESS}]`, message: childProcessMessage },
];

const clockMessage =
  "Services read the time through the runtime's clock (`now`) and wait through its `Timers` (coordination/timers.ts).";

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'bench/.data/**',
      '.test-results/**',
      'e2e/.artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', noFocusedTests],
    },
  },
  {
    files: [
      'scripts/**/*.mjs',
      'server/scripts/**/*.mjs',
      'server/bin/*.js',
      '.ci/**/*.mjs',
      'eslint.config.js',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [webNeverImportsServer] }],
    },
  },
  {
    // The API client is linked to the stores at start-up (app/api-links.ts), so it imports none.
    files: ['web/src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webNeverImportsServer,
            {
              regex: '^(\\.\\./)+(stores|features|auth|app|components)(/|$)',
              message: 'web/src/api imports no store, feature or screen: it is linked at start-up.',
            },
          ],
        },
      ],
    },
  },
  {
    // Components know no server: what they show comes in through props.
    files: ['web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webNeverImportsServer,
            {
              regex: '^(\\.\\./)+(api|features)(/|$)',
              message: 'Components know no server and no feature: pass data in through props.',
            },
          ],
        },
      ],
    },
  },
  // A feature uses another feature only through its index.ts (or on-demand.ts, for code that is
  // itself loaded on demand), never its internals. Features sit in web/src/features/X and may
  // have one level of subfolders; a later block replaces the earlier rule, so each keeps the
  // server restriction.
  ...['web/src/features/*/*.{ts,tsx}', 'web/src/features/*/*/*.{ts,tsx}'].map((files, depth) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webNeverImportsServer,
            {
              regex: `^${'\\.\\./'.repeat(depth + 1)}[a-z-]+/(?!(index|on-demand)\\.ts$)`,
              message:
                'Import another feature through its index.ts (or on-demand.ts), not its internals.',
            },
          ],
        },
      ],
    },
  })),
  {
    // User files are reached only through ScopedFs; state files only through the modules listed here.
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/fs/**',
      'server/src/tree/**',
      'server/src/bootstrap.ts',
      'server/src/config/**',
      'server/src/store/**',
      'server/src/cache/**',
      'server/src/web-host/**',
      'server/src/import/**',
      'server/src/backup/**',
      'server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: FS_MODULES }],
    },
  },
  {
    // No synchronous file-system or child-process call on the main thread once the server runs
    // (issue #37): one slow network file system would stop every request of the process. Start-up,
    // the CLI and importers may block.
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/bootstrap.ts',
      'server/src/config/load-config.ts',
      'server/src/config/tls-files.ts',
      'server/src/store/db.ts',
      'server/src/cli/**',
      'server/src/import/**',
      'server/src/**/*.fixture.ts',
      'server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-syntax': ['error', noFocusedTests, ...noSyncCalls, ...noChildProcess],
    },
  },
  {
    // Start-up modules may block, but still run no program of their own.
    files: [
      'server/src/bootstrap.ts',
      'server/src/config/load-config.ts',
      'server/src/config/tls-files.ts',
      'server/src/store/db.ts',
      'server/src/cli/**/*.ts',
      'server/src/import/**/*.ts',
    ],
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', noFocusedTests, ...noChildProcess],
    },
  },
  {
    // The process runner: the only module that starts programs.
    files: ['server/src/process/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', noFocusedTests, ...noSyncCalls],
    },
  },
  {
    // One clock and one timers seam (docs/runtime.md): services read the time through the `now`
    // the runtime hands them and wait through `Timers`, so tests move the clock instead of waiting.
    files: ['server/src/services/**/*.ts'],
    ignores: ['server/src/**/*.test.ts', 'server/src/**/*.fixture.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: clockMessage },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: clockMessage },
        { name: 'setInterval', message: clockMessage },
      ],
      'no-restricted-syntax': [
        'error',
        noFocusedTests,
        ...noSyncCalls,
        ...noChildProcess,
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: clockMessage,
        },
      ],
    },
  },
  {
    // One error channel (docs/architecture.md): routes throw coded errors and let the one handler
    // (http/error-handler.ts; WebDAV's services/dav/dav-errors.ts) answer them; no route catches
    // one to answer it itself.
    files: ['server/src/routes/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        noFocusedTests,
        ...noSyncCalls,
        ...noChildProcess,
        {
          selector:
            "BinaryExpression[operator='instanceof'][right.name=/^(AppError|TwoFactorError|RateLimitedError|OidcError)$/]",
          message:
            'Routes do not answer coded errors themselves: throw them to the one error handler (http/error-handler.ts).',
        },
      ],
    },
  },
  serverLayer('routes', ['store', 'fs', 'archive', 'coordination', 'process']),
  serverLayer('http', ['store', 'fs', 'archive', 'routes', 'coordination', 'process']),
  // A service names what it uses of the context in its own deps type (docs/architecture.md), so
  // none imports the whole AppContext.
  serverLayer('services', ['http', 'routes'], {
    patterns: [
      {
        regex: '^(\\.\\./)+context\\.ts$',
        importNames: ['AppContext'],
        message:
          'A service takes a deps object naming the parts of the context it uses, not the whole AppContext (docs/architecture.md).',
      },
    ],
  }),

  // ScopedFs reads folders and reports changes through the tree's lowest parts (tree/read,
  // tree/changes.ts); what the tree builds on ScopedFs (listings, watches, the index) is above it.
  serverLayer('fs', ['http', 'routes', 'services', 'store', 'coordination', 'process'], {
    fsAllowed: true,
    patterns: [
      {
        regex: '^(\\.\\./)+tree/(listing|watch|index|change-relay)',
        message:
          'server/src/fs/ may use only tree/read and tree/changes.ts of the tree (docs/architecture.md).',
      },
    ],
  }),
  // The file tree (docs/architecture.md): reads, watches, the name index, the listing cache and
  // the change feed. Built by the runtime, used by services; never the HTTP layer's.
  serverLayer('tree', ['http', 'routes', 'services', 'cli'], { fsAllowed: true }),
  serverLayer('store', ['http', 'routes', 'services', 'fs', 'coordination'], {
    fsAllowed: true,
  }),
  serverLayer('archive', ['http', 'routes', 'services', 'store']),
  serverLayer('streams', ['http', 'routes', 'services', 'store', 'fs', 'archive']),
  serverLayer('file-kinds', ['http', 'routes', 'services', 'store']),
  serverLayer('preview', ['http', 'routes', 'services', 'store', 'fs']),
  serverLayer('commands', ['http', 'routes', 'services', 'store', 'fs']),
  // The process runner (server/src/process/): imports nothing of the server, so services,
  // decoders (preview/), commands and archives can all use it; node:fs only for temp folders and
  // the PATH look-up.
  serverLayer(
    'process',
    [
      'http',
      'routes',
      'services',
      'store',
      'fs',
      'archive',
      'streams',
      'file-kinds',
      'preview',
      'commands',
      'credentials',
      'cache',
      'cli',
      'web-host',
      'import',
      'backup',
      'coordination',
    ],
    { fsAllowed: true },
  ),
  serverLayer('credentials', ['http', 'routes', 'services', 'fs']),
  serverLayer('config', ['http', 'routes', 'services', 'store', 'fs'], { fsAllowed: true }),
  // Counters, locks, leases and the scheduler (docs/runtime.md): built on the store alone, so
  // every service can depend on them.
  serverLayer('coordination', [
    'http',
    'routes',
    'services',
    'fs',
    'archive',
    'streams',
    'file-kinds',
    'preview',
    'commands',
    'credentials',
    'cache',
    'cli',
    'web-host',
    'process',
  ]),
  // Importers read another product's files (never user files) and write through the store; the
  // CLI hands them what they need of fs and services.
  serverLayer('import', ['http', 'routes', 'services', 'fs', 'archive'], { fsAllowed: true }),
  // Backups copy the database and the data folder's state files (never user files).
  serverLayer('backup', ['http', 'routes', 'services', 'fs', 'archive', 'coordination'], {
    fsAllowed: true,
  }),
  // The OpenAPI document is made from the route table and the protocol's schemas: it reads the
  // http layer's guards, never what is behind the routes.
  serverLayer('openapi', [
    'routes',
    'services',
    'store',
    'fs',
    'archive',
    'coordination',
    'streams',
    'file-kinds',
    'preview',
    'commands',
    'cache',
    'cli',
  ]),
  {
    // The wire contract is shared by server and web, so it depends on neither.
    files: ['protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@cabinet/server', '@cabinet/web', '**/server/**', '**/web/**'] },
      ],
    },
  },
);
