import type { Post, SiteBuild } from '@cabinet/protocol';
import { ArrowLeft, Save, Send } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { saveFile } from '../../api/resources/save-file.ts';
import { usePostFileQuery } from '../../api/sites/post-file-query.ts';
import { usePostActionMutation } from '../../api/sites/post-mutations.ts';
import { usePostsQuery } from '../../api/sites/site-queries.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';
import {
  loadCodeEditor,
  UnsavedChangesGuard,
  useThemeName,
  type EditorHandle,
} from '../preview/on-demand.ts';
import { BuildDialog } from './BuildDialog.tsx';
import { PreviewFrame } from './PreviewFrame.tsx';
import { postsRoute } from './site-routes.ts';
import { useLivePreview } from './use-live-preview.ts';
import './sites.css';
import { useSaveShortcut } from '../../hooks/use-save-shortcut.ts';

/**
 * /publishing/:site/edit/<path>: the post in the text editor with its live preview beside it
 * (one or the other, switched by tabs, on phones); Save (Ctrl+S) and Publish.
 */
export function PostEditorPage() {
  const { t } = useTranslation();
  const params = useParams();
  const site = params.site ?? '';
  const path = params['*'] ?? '';
  const posts = usePostsQuery(site);
  const post = posts.data?.find((p) => p.path === path);

  if (posts.isError) {
    return (
      <p className="field__error" role="alert">
        {posts.error.message}
      </p>
    );
  }
  if (!posts.data) return <p role="status">{t('sites.loading')}</p>;
  if (!post) {
    return (
      <div className="sites">
        <p role="alert">{t('sites.postMissing')}</p>
        <Link to={postsRoute(site)}>{t('sites.backToPosts')}</Link>
      </div>
    );
  }
  return <PostEditor key={post.path} site={site} post={post} />;
}

function PostEditor({ site, post }: { site: string; post: Post }) {
  const { t } = useTranslation();
  const id = useId();
  const file = usePostFileQuery(post.filePath);
  const action = usePostActionMutation(site);
  const preview = useLivePreview(site, post.path);
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<EditorHandle | null>(null);
  const theme = useThemeName();
  const themeRef = useRef(theme);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [isDirty, setDirty] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [pane, setPane] = useState<'edit' | 'preview'>('edit');
  const [build, setBuild] = useState<SiteBuild | undefined>();
  const title = post.title || post.slug;
  const content = file.data?.content;
  // Stable for the post's lifetime (the editor below is keyed by the post).
  const schedulePreview = preview.schedule;

  // One editor per post, made once its text is known; later refetches do not reset the text.
  useEffect(() => {
    if (content === undefined) return;
    let isCurrent = true;
    loadCodeEditor()
      .then(({ createEditor }) => {
        if (!isCurrent || !hostRef.current) return;
        const editor = createEditor({
          parent: hostRef.current,
          doc: content,
          fileName: post.filePath,
          isReadOnly: false,
          wrapLines: true,
          theme: themeRef.current,
          label: t('editor.label', { name: title }),
          onDirtyChange: setDirty,
          onChange: () => schedulePreview(() => editor.text()),
        });
        editorRef.current = editor;
        setStatus('ready');
        editor.focus();
      })
      .catch((error: unknown) => {
        console.warn('Cabinet: the editor did not load', error);
        if (isCurrent) setStatus('failed');
      });
    return () => {
      isCurrent = false;
      editorRef.current?.destroy();
      editorRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [content === undefined]);

  useEffect(() => {
    themeRef.current = theme;
    editorRef.current?.setTheme(theme);
  }, [theme]);

  /** Writes the text back; false when it failed (and said why). */
  const save = useCallback(async (): Promise<boolean> => {
    const editor = editorRef.current;
    if (!editor) return false;
    const text = editor.text();
    setSaving(true);
    try {
      await saveFile(post.filePath, text);
      editor.markSaved(text);
      notifySuccess(t('editor.saved', { name: isolateName(title) }), `save:${post.filePath}`);
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      notifyFailure(error, t('editor.saveFailed', { name: isolateName(title), reason }));
      return false;
    } finally {
      setSaving(false);
    }
  }, [post.filePath, t, title]);

  const publish = async () => {
    if (isDirty && !(await save())) return;
    action.mutate(
      { kind: 'publish', path: post.path },
      {
        onSuccess: (result) => {
          if (result.build) setBuild(result.build);
          else notifySuccess(t('sites.done.publish', { title: isolateName(title) }));
        },
        onError: (error) => notifyFailure(error),
      },
    );
  };

  useSaveShortcut(save);

  const previewTitle = t('sites.previewOf', { title: isolateName(title) });
  return (
    <section className="post-editor" aria-labelledby={`${id}-title`} data-pane={pane}>
      <div className="post-editor__bar">
        <Link
          className="icon-button"
          to={postsRoute(site)}
          aria-label={t('sites.backToPosts')}
          title={t('sites.backToPosts')}
        >
          <ArrowLeft size={20} aria-hidden="true" className="sites__flip" />
        </Link>
        <h1 id={`${id}-title`} className="post-editor__title" dir="auto">
          {title}
        </h1>
        {isDirty && (
          <span className="text-editor__badge text-editor__badge--dirty">
            <span aria-hidden="true">● </span>
            {t('editor.unsaved')}
          </span>
        )}
        <div className="post-editor__actions">
          <button
            type="button"
            className="button button--secondary button--small"
            title={t('editor.saveHint')}
            disabled={status !== 'ready' || isSaving}
            onClick={() => void save()}
          >
            <Save size={16} aria-hidden="true" />
            {t('editor.save')}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={status !== 'ready' || isSaving || action.isPending}
            onClick={() => void publish()}
          >
            <Send size={16} aria-hidden="true" className="sites__flip" />
            {t('sites.publish')}
          </button>
        </div>
      </div>
      <div className="post-editor__tabs" role="group" aria-label={t('sites.panes')}>
        <button
          type="button"
          className="post-editor__tab"
          aria-pressed={pane === 'edit'}
          onClick={() => setPane('edit')}
        >
          {t('sites.paneEdit')}
        </button>
        <button
          type="button"
          className="post-editor__tab"
          aria-pressed={pane === 'preview'}
          onClick={() => setPane('preview')}
        >
          {t('sites.panePreview')}
        </button>
      </div>
      <div className="post-editor__panes">
        <div className="post-editor__pane post-editor__pane--edit">
          <div className="text-editor__host post-editor__host" ref={hostRef}>
            {file.isError ? (
              <p className="text-editor__failed" role="alert">
                {file.error.message}
              </p>
            ) : status === 'loading' ? (
              <div className="preview-spinner" role="status" aria-label={t('files.loading')} />
            ) : status === 'failed' ? (
              <p className="text-editor__failed">{t('editor.loadFailed')}</p>
            ) : null}
          </div>
        </div>
        <div
          className="post-editor__pane post-editor__pane--preview post-preview"
          aria-busy={preview.isUpdating}
        >
          <p className="post-preview__status" role="status">
            {preview.failed
              ? t('sites.previewFailed')
              : preview.isUpdating
                ? t('sites.previewUpdating')
                : t('sites.livePreview')}
          </p>
          {preview.url && <PreviewFrame url={preview.url} title={previewTitle} />}
        </div>
      </div>
      <UnsavedChangesGuard isDirty={isDirty} />
      {build && (
        <BuildDialog
          title={t('sites.done.publish', { title: isolateName(title) })}
          build={build}
          onClose={() => setBuild(undefined)}
        />
      )}
    </section>
  );
}
