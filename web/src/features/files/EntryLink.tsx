import type { ResourceItem } from '@cabinet/protocol';
import { Link } from 'react-router';
import type { EntryActions } from './use-entry-actions.ts';
import { routeFromScopePath } from '../../paths/file-paths.ts';
import { isGrantTop, SharedMarkIcon } from '../teams/index.ts';

interface EntryLinkProps {
  item: ResourceItem;
  index: number;
  /** The one entry in the listing's tab order (roving focus). */
  isFocusable: boolean;
  actions: EntryActions;
  className: string;
}

/**
 * An entry's name as a real link (middle-click opens a tab, the address can be copied) that
 * stretches over its whole row or tile. The listing decides what clicks, taps and drags do.
 */
export function EntryLink({ item, index, isFocusable, actions, className }: EntryLinkProps) {
  return (
    <Link
      to={routeFromScopePath(item.path, item.isDir)}
      className={className}
      tabIndex={isFocusable ? 0 : -1}
      draggable
      data-entry-index={index}
      onFocus={() => actions.focus(index)}
      onClick={(event) => actions.click(index, event)}
      onDoubleClick={() => actions.doubleClick(index)}
      onPointerDown={(event) => actions.pointerDown(index, event)}
      onPointerMove={actions.pointerMove}
      onPointerUp={actions.pointerEnd}
      onPointerCancel={actions.pointerEnd}
      onContextMenu={actions.contextMenu}
      onDragStart={(event) => actions.dragStart(index, event)}
      onDragEnd={actions.dragEnd}
    >
      <bdi>{item.name}</bdi>
      {item.shared && <SharedMarkIcon mark={item.shared} inside={!isGrantTop(item)} />}
    </Link>
  );
}
