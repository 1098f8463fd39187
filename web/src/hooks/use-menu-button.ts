import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/** The items of an open menu, in order (plain and checkbox items). */
function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
}

/**
 * A menu button and its menu, as the WAI-ARIA menu button pattern has them: the button opens the
 * menu (ArrowDown or a click on the first item, ArrowUp on the last); in the menu the arrows move
 * round, Home and End go to the ends, Esc closes and gives the focus back to the button, Tab
 * closes and moves on; a pointer down anywhere else closes it. Spread `buttonProps` on the button
 * and `menuProps` on the element holding the items (`role="menuitem"` or `menuitemcheckbox`,
 * `tabIndex={-1}`).
 */
export function useMenuButton() {
  const [isOpen, setOpen] = useState(false);
  const [focusFirst, setFocusFirst] = useState(true);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!isOpen) return;
    const items = menuItems(menuRef.current);
    (focusFirst ? items[0] : items[items.length - 1])?.focus();
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [isOpen, focusFirst]);

  const open = (first: boolean) => {
    setFocusFirst(first);
    setOpen(true);
  };

  /** Closes the menu and puts the focus back on its button (after choosing an item, or Esc). */
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const handleButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open(event.key === 'ArrowDown');
    }
  };

  const handleMenuKey = (event: KeyboardEvent) => {
    const items = menuItems(menuRef.current);
    const current = items.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(current + 1);
      case 'ArrowUp':
        return move(current - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(items.length - 1);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        return close();
      case 'Tab':
        return setOpen(false);
    }
  };

  return {
    isOpen,
    close,
    buttonProps: {
      ref: buttonRef,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': isOpen,
      'aria-controls': isOpen ? menuId : undefined,
      onClick: () => (isOpen ? setOpen(false) : open(true)),
      onKeyDown: handleButtonKey,
    },
    menuProps: { ref: menuRef, id: menuId, role: 'menu', onKeyDown: handleMenuKey },
  };
}
