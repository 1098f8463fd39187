/** The wire contract shared by server and web: schemas, inferred types, limits and error codes. */
export * from './limits.ts';
export * from './user.ts';
export * from './settings.ts';
export * from './auth.ts';
export * from './resource.ts';
export * from './page-config.ts';
export * from './share.ts';
export * from './command.ts';
export * from './session.ts';
export * from './rule-pattern.ts';
export * from './search.ts';
export * from './locale.ts';
export * from './query.ts';
export * from './resource-requests.ts';
export * from './download.ts';
export * from './tus.ts';
export * from './sites.ts';
