import type { Post, SiteBuild } from '@cabinet/protocol';
import { ExternalLink, FolderOpen, Plus, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { usePostActionMutation, useSiteBuildMutation } from '../../api/sites/post-mutations.ts';
import { servedSiteUrl } from '../../api/sites/post-preview.ts';
import { usePostsQuery } from '../../api/sites/site-queries.ts';
import { useUserSitesQuery } from '../../api/sites/user-sites-query.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { routeFromScopePath } from '../../paths/file-paths.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';
import { BuildDialog } from './BuildDialog.tsx';
import { NewPostDialog } from './NewPostDialog.tsx';
import { PostItem, type PostCommand } from './PostItem.tsx';
import { orderPosts, type PostFilter, type PostSort } from './post-order.ts';
import { PreviewDialog } from './PreviewDialog.tsx';
import { ScheduleDialog } from './ScheduleDialog.tsx';
import { postEditorRoute, SITES_ROUTE } from './site-routes.ts';
import './sites.css';

type Open =
  | { kind: 'new' }
  | { kind: 'preview'; post: Post }
  | { kind: 'schedule'; post: Post; error?: string }
  | { kind: 'build'; title: string; build: SiteBuild };

/**
 * /publishing/:site: the site's posts with their state, sorted and filtered, each with its
 * actions; New post, Rebuild site and, when the site is served, a link to it.
 */
export function PostsPage() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const name = useParams().site ?? '';
  const sites = useUserSitesQuery();
  const posts = usePostsQuery(name);
  const action = usePostActionMutation(name);
  const rebuild = useSiteBuildMutation(name);
  const [sort, setSort] = useState<PostSort>('date');
  const [filter, setFilter] = useState<PostFilter>('all');
  const [open, setOpen] = useState<Open | undefined>();
  const site = sites.data?.find((s) => s.name === name);
  const siteTitle = site?.title || name;

  const named = (post: Post) => isolateName(post.title || post.slug);

  const runCommand = (command: PostCommand, post: Post) => {
    if (command === 'preview' || command === 'schedule') return setOpen({ kind: command, post });
    action.mutate(
      { kind: command, path: post.path },
      {
        onSuccess: ({ build }) => {
          const done = t(`sites.done.${command}`, { title: named(post) });
          if (build) setOpen({ kind: 'build', title: done, build });
          else notifySuccess(done);
        },
        onError: (error) => notifyFailure(error),
      },
    );
  };

  const schedule = (post: Post, at: string) =>
    action.mutate(
      { kind: 'schedule', path: post.path, at },
      {
        onSuccess: () => {
          setOpen(undefined);
          notifySuccess(
            t('sites.done.schedule', {
              title: named(post),
              when: formatDateTime(new Date(at), i18n.language),
            }),
          );
        },
        onError: (error) => setOpen({ kind: 'schedule', post, error: error.message }),
      },
    );

  const runRebuild = () =>
    rebuild.mutate(undefined, {
      onSuccess: (build) => setOpen({ kind: 'build', title: t('sites.rebuilt'), build }),
      onError: (error) => notifyFailure(error),
    });

  const shown = posts.data ? orderPosts(posts.data, sort, filter, i18n.language) : [];

  return (
    <section className="sites" aria-labelledby={`${id}-title`}>
      <nav className="sites__crumbs" aria-label={t('sites.breadcrumbs')}>
        <Link to={SITES_ROUTE}>{t('sites.title')}</Link>
      </nav>
      <div className="sites__head">
        <h1 id={`${id}-title`} className="settings__title" dir="auto">
          {siteTitle}
        </h1>
        <div className="sites__tools">
          {site?.url && (
            // The site is another place than the app: it opens beside it, as its icon says.
            <a
              className="button button--secondary button--small"
              href={servedSiteUrl(site.url)}
              target="_blank"
              rel="noopener"
            >
              <ExternalLink size={16} aria-hidden="true" />
              {t('sites.viewSite')}
            </a>
          )}
          {site && (
            <Link
              className="button button--secondary button--small"
              to={routeFromScopePath(site.path, true)}
            >
              <FolderOpen size={16} aria-hidden="true" />
              {t('sites.openFolder')}
            </Link>
          )}
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={rebuild.isPending}
            onClick={runRebuild}
          >
            <RefreshCw size={16} aria-hidden="true" />
            {t('sites.rebuild')}
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => setOpen({ kind: 'new' })}
          >
            <Plus size={16} aria-hidden="true" />
            {t('sites.newPost')}
          </button>
        </div>
      </div>
      <div className="sites__filters">
        <label className="sites__filter">
          <span className="field__label">{t('sites.sortBy')}</span>
          <select
            className="input"
            value={sort}
            onChange={(e) => setSort(e.target.value as PostSort)}
          >
            <option value="date">{t('sites.sortDate')}</option>
            <option value="title">{t('sites.sortTitle')}</option>
          </select>
        </label>
        <label className="sites__filter">
          <span className="field__label">{t('sites.show')}</span>
          <select
            className="input"
            value={filter}
            onChange={(e) => setFilter(e.target.value as PostFilter)}
          >
            <option value="all">{t('sites.allPosts')}</option>
            <option value="draft">{t('sites.state.draft')}</option>
            <option value="scheduled">{t('sites.state.scheduled')}</option>
            <option value="published">{t('sites.state.published')}</option>
          </select>
        </label>
      </div>
      {posts.isError ? (
        <p className="field__error" role="alert">
          {posts.error.message}
        </p>
      ) : !posts.data ? (
        <p role="status">{t('sites.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="settings__help">
          {posts.data.length === 0 ? t('sites.noPosts') : t('sites.noMatch')}
        </p>
      ) : (
        <ul className="posts" aria-labelledby={`${id}-title`}>
          {shown.map((post) => (
            <PostItem
              key={post.path}
              site={name}
              post={post}
              isBusy={action.isPending}
              onCommand={runCommand}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'new' && (
        <NewPostDialog
          site={name}
          onClose={() => setOpen(undefined)}
          onCreated={(post) => void navigate(postEditorRoute(name, post.path))}
        />
      )}
      {open?.kind === 'preview' && (
        <PreviewDialog site={name} post={open.post} onClose={() => setOpen(undefined)} />
      )}
      {open?.kind === 'schedule' && (
        <ScheduleDialog
          post={open.post}
          isBusy={action.isPending}
          error={open.error}
          onSchedule={(at) => schedule(open.post, at)}
          onClose={() => setOpen(undefined)}
        />
      )}
      {open?.kind === 'build' && (
        <BuildDialog title={open.title} build={open.build} onClose={() => setOpen(undefined)} />
      )}
    </section>
  );
}
