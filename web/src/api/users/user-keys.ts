/** Query keys of user records and their sessions. */
export const userKeys = {
  all: ['users'] as const,
  list: () => ['users', 'list'] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  sessions: (id: number) => ['users', 'sessions', id] as const,
};
