import { EllipsisVertical, type LucideIcon } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useMenuButton } from '../../hooks/use-menu-button.ts';
import '../../components/menu.css';

/** One entry of the more-menu. `pressed` makes it a checkbox item (e.g. multiple selection). */
export interface MenuAction {
  id: string;
  label: string;
  icon: LucideIcon;
  onSelect(): void;
  pressed?: boolean;
  isDanger?: boolean;
}

/**
 * The header's more-menu on phones: a menu button and a menu of actions (WAI-ARIA menu button
 * pattern). Arrow keys, Home and End move between items; Esc closes and returns focus to the
 * button; Tab or a click elsewhere closes it.
 */
export function MoreMenu({ actions }: { actions: MenuAction[] }) {
  const { t } = useTranslation();
  const { isOpen, close, buttonProps, menuProps } = useMenuButton();

  return (
    <div className="menu">
      <button
        {...buttonProps}
        type="button"
        className="icon-button"
        aria-label={t('files.moreActions')}
        title={t('files.moreActions')}
      >
        <EllipsisVertical size={20} aria-hidden="true" />
      </button>
      {isOpen && (
        <div {...menuProps} className="menu__list" aria-label={t('files.moreActions')}>
          {actions.map(({ id, label, icon: Icon, onSelect, pressed, isDanger }) => (
            <button
              key={id}
              type="button"
              role={pressed === undefined ? 'menuitem' : 'menuitemcheckbox'}
              aria-checked={pressed}
              tabIndex={-1}
              className="menu__item"
              data-danger={isDanger}
              onClick={() => {
                close();
                onSelect();
              }}
            >
              <Icon size={20} aria-hidden="true" />
              {label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
