import type { Post } from '@cabinet/protocol';
import { Link } from 'react-router';
import { formatDateTime } from '../../format/date-time.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { postEditorRoute } from './site-routes.ts';

/** What a post's buttons ask for; the posts screen runs it. */
export type PostCommand = 'preview' | 'publish' | 'unpublish' | 'schedule' | 'cancel';

/**
 * One post in the list: title, state, date (a schedule in the user's time zone), a failed
 * scheduled publication with the generator's log, and the actions its state allows.
 */
export function PostItem({
  site,
  post,
  isBusy,
  onCommand,
}: {
  site: string;
  post: Post;
  isBusy: boolean;
  onCommand: (command: PostCommand, post: Post) => void;
}) {
  const { t, i18n } = useTranslation();
  const when = post.scheduledAt ?? post.date;
  const whenText = when ? formatDateTime(new Date(when), i18n.language) : t('sites.noDate');
  const button = (command: PostCommand, label: string, danger = false) => (
    <button
      type="button"
      className={`button button--small ${danger ? 'button--secondary post__danger' : 'button--secondary'}`}
      disabled={isBusy}
      onClick={() => onCommand(command, post)}
    >
      {label}
    </button>
  );
  return (
    <li className="post" data-state={post.state} aria-labelledby={`post-${post.path}`}>
      <div className="post__head">
        {/* h2: the posts sit right under the screen's h1 (axe heading-order). */}
        <h2 className="post__title" id={`post-${post.path}`} dir="auto">
          {post.title || post.slug}
        </h2>
        <span className={`post__state post__state--${post.state}`}>
          {t(`sites.state.${post.state}`)}
        </span>
      </div>
      <p className="post__meta">
        {post.state === 'scheduled' ? (
          <time dateTime={when ?? undefined}>{t('sites.scheduledFor', { when: whenText })}</time>
        ) : (
          <time dateTime={when ?? undefined}>{whenText}</time>
        )}
        <span className="post__path" dir="ltr">
          {post.path}
        </span>
      </p>
      {post.failure && (
        <div className="post__failure" role="alert">
          <p>
            {t('sites.failedAt', {
              when: formatDateTime(new Date(post.failure.at), i18n.language),
            })}{' '}
            <span dir="auto">{post.failure.message}</span>
          </p>
          <details>
            <summary>{t('sites.buildLog')}</summary>
            <pre tabIndex={0}>{post.failure.log || '—'}</pre>
          </details>
        </div>
      )}
      <div className="post__actions" role="group" aria-labelledby={`post-${post.path}`}>
        <Link className="button button--small" to={postEditorRoute(site, post.path)}>
          {t('sites.edit')}
        </Link>
        {button('preview', t('sites.preview'))}
        {post.state !== 'published' && button('publish', t('sites.publish'))}
        {post.state !== 'published' && button('schedule', t('sites.schedule'))}
        {post.state === 'scheduled' && button('cancel', t('sites.cancelSchedule'), true)}
        {post.state === 'published' && button('unpublish', t('sites.unpublish'), true)}
      </div>
    </li>
  );
}
