import {
  Copy,
  Download,
  FolderInput,
  Info,
  LayoutGrid,
  List,
  ListChecks,
  Pencil,
  Share2,
  Trash2,
} from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';
import type { TokenUser } from '@cabinet/protocol';
import { HeaderSlot } from '../layout/index.ts';
import { UploadButton } from '../upload/index.ts';
import type { ViewMode } from './listing-order.ts';
import { MoreMenu, type MenuAction } from './MoreMenu.tsx';
import { hasPerm } from '../../auth/permissions.ts';
import { usePhoneLayout } from './use-phone-layout.ts';
import './toolbar.css';

interface FilesToolbarProps {
  /** The folder on screen (scope path ending with "/"). */
  folder: string;
  /** The user as the folder lets them act (inside a shared folder: own ∩ grant). */
  user: TokenUser | null;
  /** The folder is, or lies in, a shared folder (so its entries are no grant's own folder). */
  isShared: boolean;
  viewMode: ViewMode;
  onViewMode(mode: ViewMode): void;
}

function ToolbarButton({ action }: { action: MenuAction }) {
  const Icon = action.icon;
  return (
    <button
      type="button"
      className="icon-button toolbar-button"
      aria-label={action.label}
      title={action.label}
      aria-pressed={action.pressed}
      data-danger={action.isDanger}
      onClick={action.onSelect}
    >
      <Icon size={20} aria-hidden="true" />
    </button>
  );
}

/**
 * The listing's header actions, gated: rename (rename, exactly one
 * selected), copy (create, at least one), move (rename, at least one), delete (delete, at least
 * one), info, download (download), upload (create), the view switch and multiple selection. Wide
 * screens show them as buttons (selection actions first); phones get a more-menu, with Upload
 * kept beside it as the main action.
 */
export function FilesToolbar({ folder, user, isShared, viewMode, onViewMode }: FilesToolbarProps) {
  const { t } = useTranslation();
  const isPhone = usePhoneLayout();
  const count = useSelectionStore((s) => s.items.length);
  // A team folder or "Shared with me" at the top of the view is not the user's to rename, move
  // or delete (the server refuses it); leaving it is on the "Shared with me" screen.
  const hasGrantRoot = useSelectionStore((s) => !isShared && s.items.some((item) => item.shared));
  const multiple = useSelectionStore((s) => s.multiple);
  const setMultiple = useSelectionStore((s) => s.setMultiple);
  const openDialog = useDialogStore((s) => s.open);

  const onSelection: MenuAction[] = [];
  if (count === 1 && !hasGrantRoot && hasPerm(user, 'rename')) {
    onSelection.push({
      id: 'rename',
      label: t('files.rename'),
      icon: Pencil,
      onSelect: () => openDialog('rename'),
    });
  }
  if (count > 0 && hasPerm(user, 'create')) {
    onSelection.push({
      id: 'copy',
      label: t('files.copy'),
      icon: Copy,
      onSelect: () => openDialog('copy'),
    });
  }
  if (count > 0 && !hasGrantRoot && hasPerm(user, 'rename')) {
    onSelection.push({
      id: 'move',
      label: t('files.move'),
      icon: FolderInput,
      onSelect: () => openDialog('move'),
    });
  }
  // Share needs share (and download, which the server requires too) and exactly one selected.
  if (count === 1 && hasPerm(user, 'share') && hasPerm(user, 'download')) {
    onSelection.push({
      id: 'share',
      label: t('share.action'),
      icon: Share2,
      onSelect: () => openDialog('share'),
    });
  }
  if (count > 0 && !hasGrantRoot && hasPerm(user, 'delete')) {
    onSelection.push({
      id: 'delete',
      label: t('files.delete'),
      icon: Trash2,
      onSelect: () => openDialog('delete'),
      isDanger: true,
    });
  }

  const general: MenuAction[] = [
    { id: 'info', label: t('files.info'), icon: Info, onSelect: () => openDialog('info') },
  ];
  if (hasPerm(user, 'download')) {
    general.push({
      id: 'download',
      label: t('files.download'),
      icon: Download,
      onSelect: () => openDialog('download'),
    });
  }
  general.push(
    viewMode === 'list'
      ? {
          id: 'view',
          label: t('files.mosaicView'),
          icon: LayoutGrid,
          onSelect: () => onViewMode('mosaic'),
        }
      : { id: 'view', label: t('files.listView'), icon: List, onSelect: () => onViewMode('list') },
    {
      id: 'multiple',
      label: t('files.selectMultiple'),
      icon: ListChecks,
      pressed: multiple,
      onSelect: () => setMultiple(!multiple),
    },
  );

  const upload = hasPerm(user, 'create') ? <UploadButton folder={folder} /> : null;

  if (isPhone) {
    return (
      <HeaderSlot name="actions">
        {upload}
        <MoreMenu actions={[...onSelection, ...general]} />
      </HeaderSlot>
    );
  }
  return (
    <>
      <HeaderSlot name="selection">
        {onSelection.map((action) => (
          <ToolbarButton key={action.id} action={action} />
        ))}
      </HeaderSlot>
      <HeaderSlot name="actions">
        {general.map((action) => (
          <ToolbarButton key={action.id} action={action} />
        ))}
        {upload}
      </HeaderSlot>
    </>
  );
}
