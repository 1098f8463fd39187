import { Suspense, useEffect } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { useTranslation } from '../i18n/use-translation.ts';
import { useProductName } from '../config/branding.ts';
import { RequireAdmin, RequireAuth } from '../features/auth/guards.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { ErrorPage } from '../features/errors/ErrorPage.tsx';
import { RouteErrorBoundary } from '../features/errors/RouteErrorBoundary.tsx';
import { FilesPage } from '../features/files/FilesPage.tsx';
import { AppLayout } from '../features/layout/AppLayout.tsx';
import { RootShell } from '../features/layout/RootShell.tsx';
import { UnknownPathRedirect } from '../features/layout/UnknownPathRedirect.tsx';
import { lazyComponent } from './load-chunk.ts';
import type { RouteHandle } from './route-handle.ts';

const handle = (title: string): RouteHandle => ({ title });

const SettingsLayout = lazyComponent(
  () => import('../features/settings/SettingsLayout.tsx'),
  (m) => m.SettingsLayout,
);
const ProfileSettingsPage = lazyComponent(
  () => import('../features/settings/ProfileSettingsPage.tsx'),
  (m) => m.ProfileSettingsPage,
);
const GlobalSettingsPage = lazyComponent(
  () => import('../features/settings/global/GlobalSettingsPage.tsx'),
  (m) => m.GlobalSettingsPage,
);
const UsersPage = lazyComponent(
  () => import('../features/settings/users/UsersPage.tsx'),
  (m) => m.UsersPage,
);
const UserEditPage = lazyComponent(
  () => import('../features/settings/users/UserEditPage.tsx'),
  (m) => m.UserEditPage,
);
const GroupsPage = lazyComponent(
  () => import('../features/settings/groups/GroupsPage.tsx'),
  (m) => m.GroupsPage,
);
const TeamFoldersPage = lazyComponent(
  () => import('../features/settings/team-folders/TeamFoldersPage.tsx'),
  (m) => m.TeamFoldersPage,
);
const SharedWithMePage = lazyComponent(
  () => import('../features/teams/SharedWithMePage.tsx'),
  (m) => m.SharedWithMePage,
);
const ShareListPage = lazyComponent(
  () => import('../features/settings/ShareListPage.tsx'),
  (m) => m.ShareListPage,
);
const PublicSharePage = lazyComponent(
  () => import('../features/share/PublicSharePage.tsx'),
  (m) => m.PublicSharePage,
);
const TwoFactorEnrolPage = lazyComponent(
  () => import('../features/two-factor/TwoFactorEnrolPage.tsx'),
  (m) => m.TwoFactorEnrolPage,
);
const CommandRunsPage = lazyComponent(
  () => import('../features/command-runs/CommandRunsPage.tsx'),
  (m) => m.CommandRunsPage,
);
const SitesPage = lazyComponent(
  () => import('../features/sites/SitesPage.tsx'),
  (m) => m.SitesPage,
);
const PostsPage = lazyComponent(
  () => import('../features/sites/PostsPage.tsx'),
  (m) => m.PostsPage,
);
const PostEditorPage = lazyComponent(
  () => import('../features/sites/PostEditorPage.tsx'),
  (m) => m.PostEditorPage,
);
const AuditLogPage = lazyComponent(
  () => import('../features/audit/AuditLogPage.tsx'),
  (m) => m.AuditLogPage,
);
const TrashPage = lazyComponent(
  () => import('../features/trash/TrashPage.tsx'),
  (m) => m.TrashPage,
);

/**
 * Routes, guards, titles and redirects Login and files are in the entry
 * chunk (they are what a visit starts on); settings screens load on demand.
 */
export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    children: [
      { path: 'login', element: <LoginPage />, handle: handle('login.title') },
      // Public: a visitor with a link needs no account (the page titles itself).
      { path: 'share/*', element: <PublicSharePage /> },
      { path: 'two-factor', element: <TwoFactorEnrolPage />, handle: handle('twoFactor.title') },
      {
        element: <AppLayout />,
        children: [
          {
            element: <RequireAuth />,
            children: [
              // The files page titles itself with the name of what it shows.
              { path: 'files/*', element: <FilesPage /> },
              // The static-site area (docs/sites-screens.md).
              { path: 'publishing', element: <SitesPage />, handle: handle('sites.title') },
              { path: 'publishing/:site', element: <PostsPage />, handle: handle('sites.posts') },
              {
                path: 'publishing/:site/edit/*',
                element: <PostEditorPage />,
                handle: handle('sites.editorTitle'),
              },
              { path: 'trash', element: <TrashPage />, handle: handle('trash.title') },
              {
                path: 'shared',
                element: <SharedWithMePage />,
                handle: handle('teams.sharedWithMe'),
              },
              {
                path: 'settings',
                element: <SettingsLayout />,
                handle: handle('settings.title'),
                children: [
                  { index: true, element: <Navigate to="/settings/profile" replace /> },
                  {
                    path: 'profile',
                    handle: handle('settings.profileSettings'),
                    element: <ProfileSettingsPage />,
                  },
                  {
                    path: 'shares',
                    handle: handle('share.manageTitle'),
                    element: <ShareListPage />,
                  },
                  {
                    element: <RequireAdmin />,
                    children: [
                      {
                        path: 'global',
                        handle: handle('settings.globalSettings'),
                        element: <GlobalSettingsPage />,
                      },
                      {
                        path: 'users',
                        handle: handle('settings.userManagement'),
                        element: <UsersPage />,
                      },
                      {
                        path: 'users/:id',
                        handle: handle('settings.user'),
                        element: <UserEditPage />,
                      },
                      {
                        path: 'groups',
                        handle: handle('teams.groups'),
                        element: <GroupsPage />,
                      },
                      {
                        path: 'team-folders',
                        handle: handle('teams.teamFolders'),
                        element: <TeamFoldersPage />,
                      },
                      {
                        path: 'commands',
                        handle: handle('commandRuns.title'),
                        element: <CommandRunsPage />,
                      },
                      {
                        path: 'audit',
                        handle: handle('audit.title'),
                        element: <AuditLogPage />,
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

/** Sets "<route title> - <name>" from the deepest route that names a title. */
function useRouteTitle(pathname: string) {
  const { t } = useTranslation();
  const matches = matchRoutes(routes, pathname) ?? [];
  const titled = [...matches].reverse().find((m) => (m.route.handle as RouteHandle)?.title);
  const key = (titled?.route.handle as RouteHandle | undefined)?.title;
  const productName = useProductName();
  useEffect(() => {
    if (key) document.title = `${t(key)} - ${productName}`;
  }, [key, t, productName]);
}

/**
 * The route on screen, its title, and what a failing page shows. A page loading on demand keeps
 * the previous one on screen until it arrives (navigations are transitions); on a first visit
 * the page stays empty meanwhile.
 */
export function AppRoutes() {
  const location = useLocation();
  useRouteTitle(location.pathname);
  const page = useRoutes(routes);
  return (
    <RouteErrorBoundary location={location}>
      <Suspense fallback={null}>{page}</Suspense>
    </RouteErrorBoundary>
  );
}
