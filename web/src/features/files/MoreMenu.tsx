import { EllipsisVertical, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';

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
  const [isOpen, setOpen] = useState(false);
  const [focusFirst, setFocusFirst] = useState(true);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => [
    ...(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []),
  ];

  useEffect(() => {
    if (!isOpen) return;
    const list = items();
    (focusFirst ? list[0] : list[list.length - 1])?.focus();
    function handlePointer(event: PointerEvent) {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(false);
      }
    }
    document.addEventListener('pointerdown', handlePointer);
    return () => document.removeEventListener('pointerdown', handlePointer);
  }, [isOpen, focusFirst]);

  function openMenu(first: boolean) {
    setFocusFirst(first);
    setOpen(true);
  }

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  function handleButtonKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(event.key === 'ArrowDown');
    }
  }

  function handleMenuKey(event: KeyboardEvent) {
    const list = items();
    const current = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(current + 1);
      case 'ArrowUp':
        return move(current - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(list.length - 1);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        return close();
      case 'Tab':
        return setOpen(false);
    }
  }

  return (
    <div className="more-menu">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={t('files.moreActions')}
        title={t('files.moreActions')}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        onClick={() => (isOpen ? setOpen(false) : openMenu(true))}
        onKeyDown={handleButtonKey}
      >
        <EllipsisVertical size={20} aria-hidden="true" />
      </button>
      {isOpen && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          className="more-menu__list"
          aria-label={t('files.moreActions')}
          onKeyDown={handleMenuKey}
        >
          {actions.map(({ id, label, icon: Icon, onSelect, pressed, isDanger }) => (
            <button
              key={id}
              type="button"
              role={pressed === undefined ? 'menuitem' : 'menuitemcheckbox'}
              aria-checked={pressed}
              tabIndex={-1}
              className="more-menu__item"
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
