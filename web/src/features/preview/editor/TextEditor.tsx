import type { Resource } from '@cabinet/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Save, Search } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { resourceKeys } from '../../../api/resources/resource-keys.ts';
import { notifyFailure, notifySuccess } from '../../../stores/notification-store.ts';
import { parentFolder } from '../../../paths/file-paths.ts';
import { PreviewBar } from '../PreviewBar.tsx';
import { usePreviewKeys } from '../use-preview-keys.ts';
import type { PreviewNavigation } from '../use-preview-navigation.ts';
import type { EditorHandle } from './codemirror-editor.ts';
import { saveFile } from '../../../api/resources/save-file.ts';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.tsx';
import { MarkdownModeSwitch, type MarkdownMode } from './MarkdownModeSwitch.tsx';
import { MarkdownViewer } from '../MarkdownViewer.tsx';
import { useThemeName } from './use-theme-name.ts';
import './editor.css';
import { useSaveShortcut } from '../../../hooks/use-save-shortcut.ts';

export interface TextEditorProps {
  file: Resource;
  navigation: PreviewNavigation;
  isReadOnly: boolean;
  /** A Markdown file: the bar offers Preview / Edit; it opens in `markdown`'s mode. */
  markdown?: MarkdownMode;
}

/**
 * A text file in CodeMirror (loaded on first use). Ctrl+S or the Save button writes it back; a
 * failed save keeps the text and says why; unsaved changes are marked in the bar and the title
 * and guarded against leaving.
 */
export function TextEditor({ file, navigation, ...props }: TextEditorProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<EditorHandle | null>(null);
  const theme = useThemeName();
  // Esc closes from the bar; inside the editor it stays with CodeMirror (search panel, selection).
  usePreviewKeys(navigation, 'escape');
  const themeRef = useRef(theme);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [isDirty, setDirty] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const savingRef = useRef(false);
  // Text and mode the editor starts with. A later refetch of the file must not reset what is
  // typed, nor turn it read-only (dropping the unsaved-changes guard) when a permission changes:
  // the next save then fails and says why, with the text still there.
  const [initialText] = useState(file.content ?? '');
  const [isReadOnly] = useState(props.isReadOnly);
  // A Markdown file previews the editor's text as it is now, saved or not; the editor stays
  // mounted (hidden) meanwhile, so switching back loses nothing.
  const [mode, setMode] = useState<MarkdownMode>(props.markdown ?? 'edit');
  const [previewText, setPreviewText] = useState(initialText);
  const modeRef = useRef(mode);
  const handleMode = (next: MarkdownMode) => {
    modeRef.current = next;
    if (next === 'preview') setPreviewText(editorRef.current?.text() ?? previewText);
    setMode(next);
    if (next === 'edit') requestAnimationFrame(() => editorRef.current?.focus());
  };

  useEffect(() => {
    let isCurrent = true;
    import('./codemirror-editor.ts')
      .then(({ createEditor }) => {
        if (!isCurrent || !hostRef.current) return;
        editorRef.current = createEditor({
          parent: hostRef.current,
          doc: initialText,
          fileName: file.name,
          isReadOnly,
          theme: themeRef.current,
          label: t('editor.label', { name: file.name }),
          onDirtyChange: setDirty,
        });
        setStatus('ready');
        if (modeRef.current === 'edit') editorRef.current.focus();
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
    // One editor per file; the label and read-only state are fixed for its lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file.path]);

  useEffect(() => {
    themeRef.current = theme;
    editorRef.current?.setTheme(theme);
  }, [theme]);

  // The tab's title carries the marker too, so unsaved work shows in the tab strip.
  useEffect(() => {
    document.title = document.title.replace(/^● /, '');
    if (isDirty) document.title = `● ${document.title}`;
  }, [isDirty]);

  const save = useCallback(async () => {
    const editor = editorRef.current;
    if (!editor || isReadOnly || savingRef.current) return;
    const text = editor.text();
    savingRef.current = true;
    setSaving(true);
    try {
      await saveFile(file.path, text);
      editor.markSaved(text);
      notifySuccess(t('editor.saved', { name: file.name }), `save:${file.path}`);
      void queryClient.invalidateQueries({
        queryKey: resourceKeys.detail(parentFolder(file.path)),
      });
    } catch (error) {
      // The text stays in the editor and stays marked unsaved, so nothing is lost.
      const reason = error instanceof Error ? error.message : String(error);
      notifyFailure(
        error,
        t('editor.saveFailed', { name: file.name, reason }),
        `save:${file.path}`,
      );
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }, [file.path, file.name, isReadOnly, queryClient, t]);

  useSaveShortcut(save);

  return (
    <section className="text-editor" aria-label={file.name}>
      <PreviewBar
        file={file}
        navigation={navigation}
        status={
          isReadOnly ? (
            <span className="text-editor__badge">{t('editor.readOnly')}</span>
          ) : isDirty ? (
            <span className="text-editor__badge text-editor__badge--dirty">
              <span aria-hidden="true">● </span>
              {t('editor.unsaved')}
            </span>
          ) : null
        }
      >
        {props.markdown && <MarkdownModeSwitch mode={mode} onChange={handleMode} />}
        <button
          type="button"
          className="icon-button"
          aria-label={t('editor.search')}
          title={t('editor.searchHint')}
          disabled={status !== 'ready' || mode === 'preview'}
          onClick={() => editorRef.current?.openSearch()}
        >
          <Search size={20} aria-hidden="true" />
        </button>
        {!isReadOnly && (
          <button
            type="button"
            className="button button--small preview-bar__text-button"
            title={t('editor.saveHint')}
            disabled={status !== 'ready' || isSaving}
            onClick={() => void save()}
          >
            <Save size={16} aria-hidden="true" />
            <span className="preview-bar__label">{t('editor.save')}</span>
          </button>
        )}
      </PreviewBar>
      {mode === 'preview' && (
        <div className="text-editor__preview">
          <MarkdownViewer file={file} source={previewText} />
        </div>
      )}
      <div className="text-editor__host" ref={hostRef} hidden={mode === 'preview'}>
        {status === 'loading' && (
          <div className="preview-spinner" role="status" aria-label={t('files.loading')} />
        )}
        {status === 'failed' && <p className="text-editor__failed">{t('editor.loadFailed')}</p>}
      </div>
      {!isReadOnly && <UnsavedChangesGuard isDirty={isDirty} />}
    </section>
  );
}
