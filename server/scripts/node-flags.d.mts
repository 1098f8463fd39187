/** See node-flags.mjs. */
export declare const SERVER_NODE_FLAGS: readonly string[];
export declare const SHEBANG_NODE_FLAGS: readonly string[];
export declare function transferFlag(nodeVersion: string): string[];
export declare const SERVER_MALLOC_ENV: Readonly<Record<string, string>>;
export declare function serverEnvironment(): NodeJS.ProcessEnv;
