import type { Resource } from '@cabinet/protocol';
import { ChevronLeft, ChevronRight, Maximize2, Minimize2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { TextEditor } from './editor/TextEditor.tsx';
import { FileFallback } from './FileFallback.tsx';
import { hasBigPreviews } from './image-source.ts';
import { ImageViewer } from './ImageViewer.tsx';
import { MarkdownViewer } from './MarkdownViewer.tsx';
import { AudioViewer, VideoViewer } from './MediaViewer.tsx';
import { PdfViewer } from './PdfViewer.tsx';
import { PreviewBar } from './PreviewBar.tsx';
import { usePreviewKeys } from './use-preview-keys.ts';
import { usePreviewNavigation, type PreviewNavigation } from './use-preview-navigation.ts';
import { viewerKind } from './viewer-kind.ts';
import './preview.css';

/**
 * A single file: the viewer for its type, or the editor for text. Each file gets fresh viewer
 * state (zoom, player, editor), so stepping to the next one starts clean.
 */
export function FileScreen({ file }: { file: Resource }) {
  const navigation = usePreviewNavigation(file);
  const canModify = useCurrentUser()?.perm.modify ?? false;
  const kind = viewerKind(file);
  const isReadOnly = file.type === 'textImmutable' || !canModify;

  // Text opens in the editor. Markdown someone may change opens there too, with Preview / Edit:
  // rendered when it has text, straight in Edit when it is new and empty.
  if (kind === 'text' || (kind === 'markdown' && !isReadOnly)) {
    return (
      <TextEditor
        key={file.path}
        file={file}
        navigation={navigation}
        isReadOnly={isReadOnly}
        markdown={kind === 'markdown' ? (file.content ? 'preview' : 'edit') : undefined}
      />
    );
  }
  return <FilePreview key={file.path} file={file} navigation={navigation} />;
}

interface FilePreviewProps {
  file: Resource;
  navigation: PreviewNavigation;
}

/** A viewer with its bar, previous and next buttons, and the preview keys. */
function FilePreview({ file, navigation }: FilePreviewProps) {
  const { t } = useTranslation();
  const [isFullSize, setFullSize] = useState(false);
  const kind = viewerKind(file);
  const canDownload = useCurrentUser()?.perm.download ?? false;
  // Documents scroll and PDFs have their own controls: floating buttons would cover them.
  const stepsInBar = kind === 'markdown' || kind === 'pdf' || kind === 'office';
  usePreviewKeys(navigation);

  return (
    <section className="preview" aria-label={file.name} data-viewer={kind}>
      <PreviewBar file={file} navigation={navigation}>
        {kind === 'image' && hasBigPreviews && (
          <button
            type="button"
            className="icon-button"
            aria-pressed={isFullSize}
            aria-label={t('preview.fullSize')}
            title={t('preview.fullSize')}
            onClick={() => setFullSize((value) => !value)}
          >
            {isFullSize ? (
              <Minimize2 size={20} aria-hidden="true" />
            ) : (
              <Maximize2 size={20} aria-hidden="true" />
            )}
          </button>
        )}
        {stepsInBar && <StepButtons navigation={navigation} inBar />}
      </PreviewBar>
      <div className={`preview__stage preview__stage--${kind}`}>
        {kind === 'image' && <ImageViewer file={file} isFullSize={isFullSize} />}
        {kind === 'audio' && <AudioViewer file={file} />}
        {kind === 'video' && <VideoViewer file={file} />}
        {kind === 'pdf' && <PdfViewer file={file} />}
        {kind === 'office' && <PdfViewer file={file} rendered />}
        {kind === 'markdown' && <MarkdownViewer file={file} />}
        {kind === 'download' && (
          <FileFallback
            file={file}
            reason={
              file.type.startsWith('text') && canDownload ? t('preview.textTooLarge') : undefined
            }
          />
        )}
        {!stepsInBar && <StepButtons navigation={navigation} />}
      </div>
    </section>
  );
}

/** Previous and next: floating at the stage's sides, or plain buttons in the bar. */
function StepButtons({
  navigation,
  inBar = false,
}: {
  navigation: PreviewNavigation;
  inBar?: boolean;
}) {
  const { t } = useTranslation();
  const className = inBar ? 'icon-button' : 'preview__step';
  return (
    <>
      {navigation.hasPrevious && (
        <button
          type="button"
          className={inBar ? className : `${className} preview__step--previous`}
          aria-label={t('preview.previous')}
          title={t('preview.previousHint')}
          onClick={navigation.goPrevious}
        >
          <ChevronLeft size={inBar ? 20 : 24} aria-hidden="true" className="preview__chevron" />
        </button>
      )}
      {navigation.hasNext && (
        <button
          type="button"
          className={inBar ? className : `${className} preview__step--next`}
          aria-label={t('preview.next')}
          title={t('preview.nextHint')}
          onClick={navigation.goNext}
        >
          <ChevronRight size={inBar ? 20 : 24} aria-hidden="true" className="preview__chevron" />
        </button>
      )}
    </>
  );
}
