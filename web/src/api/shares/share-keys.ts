/** Query keys of share links. */
export const shareKeys = {
  all: ['shares'] as const,
  /** Every link the user may see (the Shares screen). */
  list: () => ['shares', 'list'] as const,
  /** The links of one item (the share dialog). */
  path: (path: string) => ['shares', 'path', path] as const,
  /**
   * A public share page: link, sub-path and the password typed (kept in memory only), so a
   * different password is a different query and never reuses a refused answer.
   */
  public: (hash: string, sub: string, password: string) =>
    ['shares', 'public', hash, sub, password] as const,
};
