/**
 * The part of the `bcrypt` package (native bcrypt, prebuilt) that password verification and the
 * import tests use; the package ships no types and @types/bcrypt is not a dependency.
 */
declare module 'bcrypt' {
  /** Whether `data` matches a `$2a$`/`$2b$` hash; runs on the libuv thread pool. */
  export function compare(data: string, encrypted: string): Promise<boolean>;
  /** A `$2b$` hash of `data` at cost `rounds`. */
  export function hash(data: string, rounds: number): Promise<string>;
  const bcrypt: { compare: typeof compare; hash: typeof hash };
  export default bcrypt;
}
