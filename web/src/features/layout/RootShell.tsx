import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import type { RouteHandle } from '../../app/route-handle.ts';
import { productName } from '../../config/page-config.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { useLayoutStore } from '../../stores/layout-store.ts';
import { DialogHost } from '../dialogs/DialogHost.tsx';
import { Notifications } from '../notifications/Notifications.tsx';

/** Sets "<route title> - <name>" from the deepest route that names a title. */
function useRouteTitle() {
  const matches = useMatches();
  const { t } = useTranslation();
  const titled = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title);
  const key = (titled?.handle as RouteHandle | undefined)?.title;
  useEffect(() => {
    if (key) document.title = `${t(key)} - ${productName}`;
  }, [key, t]);
}

/**
 * Around every route: the title, notifications and the dialog layer. A route change closes the
 * open dialog (unless it is a success message) and the mobile drawer (SPEC.md section 4).
 */
export function RootShell() {
  const { pathname } = useLocation();
  useRouteTitle();
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
