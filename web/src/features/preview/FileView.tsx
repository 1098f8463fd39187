import type { Resource } from '@cabinet/protocol';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';

// Viewers, the editor's shell and their styles are a chunk of their own, fetched when the first
// file opens, so the initial JavaScript of /login and /files does not carry them.
const FileScreen = lazy(() => import('./FileScreen.tsx').then((m) => ({ default: m.FileScreen })));

/** A single file at /files/{path}: the viewer or editor for its type (loaded on first use). */
export function FileView({ file }: { file: Resource }) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        // Base styles only: the preview's own stylesheet arrives with its chunk.
        <div
          className="skeleton"
          style={{
            display: 'block',
            width: '100%',
            height: 'min(60vh, 480px)',
            borderRadius: 'var(--radius-dialog)',
          }}
          role="status"
          aria-label={t('files.loading')}
        />
      }
    >
      <FileScreen file={file} />
    </Suspense>
  );
}
