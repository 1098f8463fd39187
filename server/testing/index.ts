// The server's test kit, `@cabinet/server/testing`: a real server over temp folders (for the
// server's HTTP tests and the browser tests alike), the database a test runs on (SQLite, or
// PostgreSQL under CABINET_TEST_POSTGRES), a client for the command socket, a real OpenID
// provider for single sign-on and a hold on background copy jobs.
export * from './test-server.ts';
export * from './test-database.ts';
export * from './command-socket.ts';
export * from './oidc-provider.ts';
export * from './spawned-server.ts';
export * from './file-job-hold.ts';
export * from './commands.ts';
