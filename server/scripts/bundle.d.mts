/** See bundle.mjs. */
export declare const BUNDLE: string;
export declare const TESTING_BUNDLE: string;
export declare function bundleIsFresh(bundle?: string, sources?: readonly string[]): boolean;
export declare function buildBundle(): Promise<void>;
export declare function latin1Source(text: string): string;
export declare function ensureTestingBundle(): Promise<string | null>;
export declare function ensureBundle(): Promise<string | null>;
