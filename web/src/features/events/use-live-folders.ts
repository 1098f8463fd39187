import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { SITE_EVENT, SiteEvent } from '@cabinet/protocol';
import { openEventStream } from '../../api/events.ts';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { siteKeys } from '../../api/sites/site-keys.ts';
import { teamKeys } from '../../api/teams/team-keys.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { isAffected } from './changed-folders.ts';
import { receiveJobEvent, reloadJobs } from '../jobs/index.ts';

/** Changes are gathered this long, so a burst costs one re-read of the folder on screen. */
const GATHER_MS = 300;
/** After the server refused the stream (a restart, a renewed session), it is reopened this late. */
const REOPEN_MS = 5000;

/** A site's posts changed (`site` event, docs/sites.md): its posts are read again. */
function refreshSite(queryClient: QueryClient, data: unknown): void {
  const site = SiteEvent.safeParse(data);
  if (!site.success) return;
  void queryClient.invalidateQueries({ queryKey: siteKeys.posts(site.data.site) });
}

/** Re-reads the resources shown (or cached) that a change on disk affects. */
function refresh(queryClient: QueryClient, changed: readonly string[] | 'all'): void {
  void queryClient.invalidateQueries({
    queryKey: resourceKeys.all,
    predicate: (query) => {
      if (changed === 'all') return true;
      const [, kind, path] = query.queryKey;
      if (kind !== 'detail' || typeof path !== 'string') return false;
      return changed.some((c) => isAffected(path, c));
    },
  });
}

/**
 * One event stream per signed-in page (docs/jobs.md): a folder on screen follows the disk (a file
 * another program writes appears within about a second), keeping selection and scroll since only
 * the listing's data is re-read. After a reconnect whatever is shown is re-read.
 */
export function useLiveFolders(): void {
  const queryClient = useQueryClient();
  const token = useSessionStore((s) => s.token);
  useEffect(() => {
    if (!token) return;
    let pending: string[] = [];
    let gather: ReturnType<typeof setTimeout> | null = null;
    let reopen: ReturnType<typeof setTimeout> | null = null;
    let resumeFrom: string | null = null;
    let stream: ReturnType<typeof openEventStream> | null = null;
    const open = () => {
      stream = openEventStream(
        {
          onOpen: (resumed) => {
            if (resumed) refresh(queryClient, 'all');
            // Background jobs went on while the stream was away (docs/jobs.md).
            if (resumed) void reloadJobs();
            // So did sites, and on a first open too: a publication between the page's first read
            // of a site and the stream's start reaches no stream (the server re-sends recent disk
            // changes to a new stream, not sites' events), so what is shown of sites is read again.
            void queryClient.invalidateQueries({ queryKey: siteKeys.all });
          },
          onResync: () => {
            refresh(queryClient, 'all');
            void reloadJobs();
            void queryClient.invalidateQueries({ queryKey: siteKeys.all });
          },
          onEvent: (type, data) => {
            if (type === 'job') receiveJobEvent(data);
            if (type === SITE_EVENT) refreshSite(queryClient, data);
            // A grant came, changed or went: what the user sees of it is read again, and a
            // folder they lost access to answers "not found" where it is on screen.
            if (type === 'shared') {
              void queryClient.invalidateQueries({ queryKey: teamKeys.sharedWithMe });
              void queryClient.invalidateQueries({ queryKey: teamKeys.peopleShares });
              refresh(queryClient, 'all');
            }
          },
          onChanged: (path) => {
            pending.push(path);
            gather ??= setTimeout(() => {
              gather = null;
              const changed = pending;
              pending = [];
              refresh(queryClient, changed);
            }, GATHER_MS);
          },
          onClosed: () => {
            resumeFrom = stream?.close() ?? resumeFrom;
            reopen = setTimeout(open, REOPEN_MS);
          },
        },
        resumeFrom,
      );
    };
    open();
    return () => {
      if (gather) clearTimeout(gather);
      if (reopen) clearTimeout(reopen);
      stream?.close();
    };
  }, [queryClient, token]);
}
