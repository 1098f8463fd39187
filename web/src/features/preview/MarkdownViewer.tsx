import type { Resource } from '@cabinet/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { parentFolder } from '../../paths/file-paths.ts';
import { FileFallback } from './FileFallback.tsx';

interface MarkdownViewerProps {
  file: Resource;
  /** The text to render when it is not the file's saved content (the editor's preview). */
  source?: string;
}

/**
 * A Markdown file rendered and sanitised. marked and DOMPurify load only when a document is first
 * shown, so they stay out of the initial bundle.
 */
export function MarkdownViewer({ file, source = file.content ?? '' }: MarkdownViewerProps) {
  const { t } = useTranslation();
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    import('./render-markdown.ts')
      .then(({ renderMarkdown }) => {
        if (isCurrent) setHtml(renderMarkdown(source, parentFolder(file.path)));
      })
      .catch((error: unknown) => {
        console.warn('Cabinet: the Markdown renderer did not load', error);
        if (isCurrent) setFailed(true);
      });
    return () => {
      isCurrent = false;
    };
  }, [source, file.path]);

  if (failed) return <FileFallback file={file} reason={t('preview.markdownFailed')} />;
  if (html === null) {
    return <div className="preview-spinner" role="status" aria-label={t('files.loading')} />;
  }
  return (
    <article
      className="markdown"
      aria-label={file.name}
      // Sanitised by renderMarkdown (DOMPurify) right above.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
