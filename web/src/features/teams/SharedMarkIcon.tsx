import type { SharedMark } from '@cabinet/protocol';
import { FolderInput, Users } from 'lucide-react';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import './shared-mark.css';

/** "Team folder", "Shared by alice" or "Shared with me": what a shared entry is, in words. */
export function useSharedMarkText(): (mark: SharedMark) => string {
  const { t } = useTranslation();
  return (mark) =>
    mark.kind === 'team'
      ? t('teams.teamFolder')
      : mark.kind === 'shared-with-me'
        ? t('teams.sharedWithMe')
        : mark.owner
          ? t('teams.sharedBy', { name: isolateName(mark.owner) })
          : t('teams.sharedWithYou');
}

/**
 * The icon beside a shared entry's name, with its meaning as an image name (screen readers say
 * "Team folder" or "Shared by alice"; a tooltip shows it to the pointer).
 */
export function SharedMarkIcon({ mark, inside = false }: { mark: SharedMark; inside?: boolean }) {
  const text = useSharedMarkText()(mark);
  const Icon = mark.kind === 'team' ? Users : FolderInput;
  // An item inside a shared folder: the tooltip says it, the entry's name stays its own (the
  // folder's heading told assistive technology already).
  if (inside) {
    return (
      <span className="shared-mark" aria-hidden="true" title={text}>
        <Icon size={16} />
      </span>
    );
  }
  return (
    <span className="shared-mark" role="img" aria-label={text} title={text}>
      <Icon size={16} aria-hidden="true" />
    </span>
  );
}
