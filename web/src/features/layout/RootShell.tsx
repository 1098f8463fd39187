import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { shownPathname } from '../../app/history.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { useLayoutStore } from '../../stores/layout-store.ts';
import { DialogHost } from '../dialogs/index.ts';
import { Notifications } from '../notifications/index.ts';

/**
 * Around every route: notifications and the dialog layer. A route change closes the
 * open dialog (unless it is a success message) and the mobile drawer.
 */
export function RootShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    const { dialog, close } = useDialogStore.getState();
    // Navigations render as transitions (app/App.tsx), so a dialog opened while the next screen
    // was still loading already belongs to the new address and stays open.
    if (dialog && dialog.name !== 'success' && dialog.openedOn !== shownPathname()) close();
    useLayoutStore.getState().setSidebarOpen(false);
  }, [pathname]);
  return (
    <>
      <Outlet />
      <DialogHost />
      <Notifications />
    </>
  );
}
