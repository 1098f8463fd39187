import type { SiteBuild } from '@cabinet/protocol';
import { Dialog } from '../../components/Dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { BuildReport } from './BuildReport.tsx';

/** The report of a publish, unpublish or rebuild, until the user closes it. */
export function BuildDialog({
  title,
  build,
  onClose,
}: {
  title: string;
  build: SiteBuild;
  onClose: () => void;
}) {
  const { t } = useTranslation();
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
      <BuildReport build={build} />
    </Dialog>
  );
}
