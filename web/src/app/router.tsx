import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { baseURL } from '../config/page-config.ts';
import { RequireAdmin, RequireAuth } from '../features/auth/guards.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { ErrorPage } from '../features/errors/ErrorPage.tsx';
import { RouteErrorPage } from '../features/errors/RouteErrorPage.tsx';
import { FilesPage } from '../features/files/FilesPage.tsx';
import { AppLayout } from '../features/layout/AppLayout.tsx';
import { RootShell } from '../features/layout/RootShell.tsx';
import { UnknownPathRedirect } from '../features/layout/UnknownPathRedirect.tsx';
import { lazyRoute } from './lazy-route.ts';
import type { RouteHandle } from './route-handle.ts';

const handle = (title: string): RouteHandle => ({ title });

/**
 * Routes, guards, titles and redirects of SPEC.md section 2. Login and files are in the entry
 * chunk (they are what a visit starts on); settings screens load on demand.
 */
export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: 'login', element: <LoginPage />, handle: handle('login.title') },
      {
        element: <AppLayout />,
        children: [
          {
            element: <RequireAuth />,
            children: [
              // The files page titles itself with the name of what it shows.
              { path: 'files/*', element: <FilesPage /> },
              {
                path: 'settings',
                lazy: lazyRoute(
                  () => import('../features/settings/SettingsLayout.tsx'),
                  (m) => m.SettingsLayout,
                ),
                handle: handle('settings.title'),
                children: [
                  { index: true, element: <Navigate to="/settings/profile" replace /> },
                  {
                    path: 'profile',
                    handle: handle('settings.profileSettings'),
                    lazy: lazyRoute(
                      () => import('../features/settings/ProfileSettingsPage.tsx'),
                      (m) => m.ProfileSettingsPage,
                    ),
                  },
                  {
                    element: <RequireAdmin />,
                    children: [
                      {
                        path: 'global',
                        handle: handle('settings.globalSettings'),
                        lazy: lazyRoute(
                          () => import('../features/settings/GlobalSettingsPage.tsx'),
                          (m) => m.GlobalSettingsPage,
                        ),
                      },
                      {
                        path: 'users',
                        handle: handle('settings.userManagement'),
                        lazy: lazyRoute(
                          () => import('../features/settings/UsersPage.tsx'),
                          (m) => m.UsersPage,
                        ),
                      },
                      {
                        path: 'users/:id',
                        handle: handle('settings.user'),
                        lazy: lazyRoute(
                          () => import('../features/settings/UserEditPage.tsx'),
                          (m) => m.UserEditPage,
                        ),
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            path: '403',
            element: <ErrorPage code={403} />,
            handle: handle('errors.forbiddenTitle'),
          },
          {
            path: '404',
            element: <ErrorPage code={404} />,
            handle: handle('errors.notFoundTitle'),
          },
          {
            path: '500',
            element: <ErrorPage code={500} />,
            handle: handle('errors.internalTitle'),
          },
        ],
      },
      { index: true, element: <Navigate to="/files/" replace /> },
      { path: '*', element: <UnknownPathRedirect /> },
    ],
  },
];

/** History-mode router under the server's base URL. */
export const router = createBrowserRouter(routes, baseURL ? { basename: baseURL } : undefined);
