import type { Resource } from '@cabinet/protocol';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Ban, MapPinOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/api-error.ts';
import { fetchPublicShare, publicDownloadUrl } from '../../api/shares/public-share.ts';
import { shareKeys } from '../../api/shares/share-keys.ts';
import { Logo } from '../../components/Logo.tsx';
import { useProductName } from '../../config/branding.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { formatFileSize } from '../../format/file-size.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { LazyQrCode } from './LazyQrCode.tsx';
import { ShareDownload } from './ShareDownload.tsx';
import { ShareFolderList } from './ShareFolderList.tsx';
import { SharePasswordForm } from './SharePasswordForm.tsx';
import { SharePreview } from './SharePreview.tsx';
import { ShareUploadArea } from './ShareUploadArea.tsx';
import { parseShareSplat, shareParent, shareRoute } from './share-route.ts';
import './public-share.css';

/**
 * The public page of a link, `/share/{hash}[/{path}]`: no login. It shows
 * the shared file or folder with a download button and a QR code, lets visitors walk into
 * sub-folders and preview media, asks for the password of a protected link, and says plainly
 * when a link does not exist (or no longer does).
 */
export function PublicSharePage() {
  const { t } = useTranslation();
  const { hash, sub } = parseShareSplat(useParams()['*'] ?? '');
  const [password, setPassword] = useState('');
  // This visit's ticket, kept while the visitor walks a folder link: one visit, one download.
  const visit = useRef<string | undefined>(undefined);
  const query = useQuery({
    queryKey: shareKeys.public(hash, sub, password),
    queryFn: async ({ signal }) => {
      const item = await fetchPublicShare(hash, sub, password, signal, visit.current);
      visit.current = item.visit ?? visit.current;
      return item;
    },
    retry: false,
    staleTime: 0,
  });
  const title = query.data ? shownName(query.data, sub) : t('share.pageTitle');
  const productName = useProductName();
  useEffect(() => {
    document.title = `${title} - ${productName}`;
  }, [title, productName]);

  // A file directly inside a folder link goes back to the link's folder: its name comes from the
  // folder's own reply (cached when the visitor came from there).
  const item = query.data;
  const needsRootName = item !== undefined && !item.isDir && shareParent(item.path || '/') === '/';
  const root = useQuery({
    queryKey: shareKeys.public(hash, '/', password),
    queryFn: ({ signal }) => fetchPublicShare(hash, '/', password, signal, visit.current),
    enabled: needsRootName && item.path !== '',
    retry: false,
    staleTime: Infinity,
  });

  let content;
  if (query.data) {
    content = (
      <ShareView
        hash={hash}
        sub={sub}
        item={query.data}
        password={password}
        rootName={root.data?.name}
      />
    );
  } else if (query.error) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    content =
      status === 401 || status === 429 ? (
        <SharePasswordForm
          problem={
            status === 429 ? t('share.tooManyAttempts') : password ? t('share.wrongPassword') : null
          }
          isChecking={query.isFetching}
          onSubmit={setPassword}
        />
      ) : (
        <ShareProblem status={status} />
      );
  } else {
    content = <div className="card public-share__card public-share__loading" aria-busy="true" />;
  }

  return (
    <div className="public-share">
      <header className="public-share__bar">
        <Logo />
        <span className="public-share__product">{productName}</span>
      </header>
      <main id="main" className="public-share__main">
        {content}
      </main>
    </div>
  );
}

/** The name a page shows: the sub-folder's own name below the link's root. */
function shownName(item: Resource, sub: string): string {
  if (!item.isDir || sub === '/') return item.name;
  return sub.replace(/\/+$/, '').split('/').pop() || item.name;
}

/**
 * Not found (unknown or expired link), downloads used up (410), no longer available (403), or a
 * failure.
 */
function ShareProblem({ status }: { status: number }) {
  const { t } = useTranslation();
  const isGone = status === 403 || status === 410;
  const Icon = isGone ? Ban : MapPinOff;
  const message =
    status === 404
      ? t('share.notFound')
      : status === 410
        ? t('firstWeek.shareUsedUp')
        : isGone
          ? t('share.forbidden')
          : t('share.loadFailed');
  return (
    <section
      className="card public-share__card public-share__state"
      aria-labelledby="share-problem"
    >
      <Icon className="public-share__state-icon" size={48} aria-hidden="true" />
      <h1 id="share-problem" className="card__title">
        {message}
      </h1>
      <p className="public-share__muted">{t('share.notFoundHint')}</p>
    </section>
  );
}

/** A link's file or folder: facts, download, preview or contents, and the QR code. */
function ShareView({
  hash,
  sub,
  item,
  password,
  rootName,
}: {
  hash: string;
  sub: string;
  item: Resource;
  password: string;
  /** The name of a folder link's own folder, for a file directly inside it. */
  rootName?: string;
}) {
  const { t, i18n } = useTranslation();
  if (item.request) {
    return (
      <section
        className="card public-share__card public-share__request"
        aria-labelledby="share-name"
      >
        <h1 id="share-name" className="public-share__name">
          {t('share.requestTitle', { name: item.name })}
        </h1>
        <p className="public-share__muted">{t('share.requestHint')}</p>
        <ShareUploadArea hash={hash} password={password} />
      </section>
    );
  }
  // A file link answers with an empty path; its download address is the link itself.
  const itemSub = item.path === '' ? '/' : item.path;
  const parent = item.path === '' ? null : shareParent(itemSub);
  const name = shownName(item, sub);
  // The folder "Back to" leads to: a folder reply is named after the link's folder at any depth.
  const upName = parent === '/' ? (item.isDir ? item.name : rootName) : parent?.split('/').pop();
  return (
    <div className="public-share__layout">
      <section className="card public-share__card" aria-labelledby="share-name">
        {parent !== null && upName && (
          <Link className="public-share__up" to={shareRoute(hash, parent, true)}>
            <ArrowLeft size={18} aria-hidden="true" />
            {t('share.up', { name: upName })}
          </Link>
        )}
        <div className="public-share__heading">
          <FileIcon entry={item} size={40} />
          <h1 id="share-name" className="public-share__name">
            {name}
          </h1>
        </div>
        <dl className="public-share__facts">
          {!item.isDir && (
            <div>
              <dt>{t('share.size')}</dt>
              <dd className="bidi-ltr">{formatFileSize(item.size, i18n.language)}</dd>
            </div>
          )}
          <div>
            <dt>{t('share.modified')}</dt>
            <dd>{formatDateTime(new Date(item.modified), i18n.language)}</dd>
          </div>
        </dl>
        <ShareDownload
          hash={hash}
          sub={itemSub}
          isDir={item.isDir}
          token={item.token}
          visit={item.visit}
        />
        {!item.isDir && (
          <SharePreview
            item={item}
            src={publicDownloadUrl(hash, itemSub, {
              token: item.token,
              visit: item.visit,
              inline: true,
            })}
          />
        )}
        {item.isDir && <ShareFolderList hash={hash} items={item.items ?? []} />}
      </section>
      <aside className="card public-share__qr" aria-labelledby="share-qr-title">
        <h2 id="share-qr-title" className="public-share__qr-title">
          {t('share.qrTitle')}
        </h2>
        <LazyQrCode value={window.location.href} label={t('share.qrLabel')} />
      </aside>
    </div>
  );
}
