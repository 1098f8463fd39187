import { Menu, SquareTerminal } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Logo } from '../../components/Logo.tsx';
import { useProductName } from '../../config/branding.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { useLayoutStore } from '../../stores/layout-store.ts';
import { headerSlotRef } from './header-slots.tsx';
import { useShellStore } from '../../stores/shell-store.ts';
import { canUseShell, SHELL_TOGGLE_ID } from '../shell/index.ts';

const searchSlot = headerSlotRef('search');
const actionsSlot = headerSlotRef('actions');
const selectionSlot = headerSlotRef('selection');

/** The top bar: drawer toggle (small screens), logo and name, then the slots pages fill. */
export function Header() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const isSidebarOpen = useLayoutStore((s) => s.isSidebarOpen);
  const toggleSidebar = useLayoutStore((s) => s.toggleSidebar);
  const productName = useProductName();
  return (
    <header className="app-header">
      <button
        type="button"
        className="icon-button app-header__menu"
        aria-label={t('layout.toggleSidebar')}
        aria-expanded={isSidebarOpen}
        aria-controls="app-sidebar"
        onClick={toggleSidebar}
      >
        <Menu size={20} aria-hidden="true" />
      </button>
      <Link to={user ? '/files/' : '/login'} className="app-header__brand">
        <Logo />
        <span className="app-header__name">{productName}</span>
      </Link>
      <div className="app-header__search" ref={searchSlot} />
      <div className="app-header__spacer" />
      <div className="app-header__selection" ref={selectionSlot} />
      <div className="app-header__actions" ref={actionsSlot} />
      {canUseShell(user) && <ShellToggle />}
    </header>
  );
}

/** Opens and closes the shell panel (only with execute permission and execution enabled). */
function ShellToggle() {
  const { t } = useTranslation();
  const isOpen = useShellStore((s) => s.isOpen);
  return (
    <button
      type="button"
      id={SHELL_TOGGLE_ID}
      className="icon-button"
      aria-label={t('shell.toggle')}
      title={t('shell.toggle')}
      aria-pressed={isOpen}
      onClick={useShellStore.getState().toggle}
    >
      <SquareTerminal size={20} aria-hidden="true" />
    </button>
  );
}
