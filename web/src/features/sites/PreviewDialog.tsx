import type { Post } from '@cabinet/protocol';
import { useQuery } from '@tanstack/react-query';
import { requestPostPreview } from '../../api/sites/post-preview.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { PreviewFrame } from './PreviewFrame.tsx';

/** The post as saved, rendered with the site's layout (drafts and future posts too). */
export function PreviewDialog({
  site,
  post,
  onClose,
}: {
  site: string;
  post: Post;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const preview = useQuery({
    queryKey: ['sites', 'preview', site, post.path],
    queryFn: ({ signal }) => requestPostPreview(site, post.path, undefined, signal),
    gcTime: 0,
    staleTime: 0,
  });
  const title = t('sites.previewOf', { title: isolateName(post.title) });
  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('buttons.close')}
        </button>
      }
    >
      <div className="post-preview post-preview--dialog">
        {preview.isError ? (
          <p className="field__error" role="alert">
            {t('sites.previewFailed')}
          </p>
        ) : preview.data ? (
          <PreviewFrame url={preview.data.url} title={title} />
        ) : (
          <p role="status">{t('sites.loading')}</p>
        )}
      </div>
    </Dialog>
  );
}
