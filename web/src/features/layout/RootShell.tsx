import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { useLayoutStore } from '../../stores/layout-store.ts';
import { DialogHost } from '../dialogs/DialogHost.tsx';
import { Notifications } from '../notifications/Notifications.tsx';

/**
 * Around every route: notifications and the dialog layer. A route change closes the
 * open dialog (unless it is a success message) and the mobile drawer (SPEC.md section 4).
 */
export function RootShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    const { dialog, close } = useDialogStore.getState();
    if (dialog && dialog.name !== 'success') close();
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
