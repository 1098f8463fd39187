import type { Resource } from '@cabinet/protocol';
import { ExternalLink } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { pdfPreviewUrl, rawUrl } from '../../api/resources/preview-urls.ts';

/**
 * A PDF in the browser's own viewer; an office document (`rendered`) as the PDF the server makes
 * of it with LibreOffice. Browsers without an inline viewer (most phones) show the
 * fallback link inside <object> instead, which opens the file in a new tab.
 */
export function PdfViewer({ file, rendered = false }: { file: Resource; rendered?: boolean }) {
  const { t } = useTranslation();
  const url = rendered ? pdfPreviewUrl(file.path, file.modified) : rawUrl(file.path, true);
  return (
    <object className="pdf-viewer" data={url} type="application/pdf" aria-label={file.name}>
      <div className="file-fallback">
        <p className="file-fallback__reason">{t('preview.pdfUnsupported')}</p>
        <a className="button" href={url} target="_blank" rel="noopener noreferrer">
          <ExternalLink size={20} aria-hidden="true" />
          {t('preview.openPdf')}
        </a>
      </div>
    </object>
  );
}
