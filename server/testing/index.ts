// The server's test kit, `@cabinet/server/testing`: a real server over temp folders (for the
// server's HTTP tests and the browser tests alike) and a client for the command socket.
export * from './test-server.ts';
export * from './command-socket.ts';
