import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { errorPageCode, isNetworkFailure } from '../../api/api-error.ts';
import { useResourceQuery } from '../../api/resources/resource-query.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';
import { ErrorPage } from '../errors/index.ts';
import { FileView } from '../preview/index.ts';
import { HeaderSlot } from '../layout/index.ts';
import { SearchButton } from '../search/index.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { FolderListing } from './FolderListing.tsx';
import { ListingSkeleton } from './ListingSkeleton.tsx';
import { folderLabel } from '../operations/index.ts';
import { SelectionBanner } from './SelectionBanner.tsx';
import { isSamePath, routeFromScopePath, scopePathFromRoute } from '../../paths/file-paths.ts';
import { firstScreenShown } from '../../app/first-screen.ts';
import './files.css';

/**
 * /files/{path}: the folder listing, or a single file. A reply whose path is not the route's
 * (a late answer for a folder the user already left) is ignored; the page titles itself with the
 * item's name. Any route change resets the selection and multiple-selection mode.
 */
export function FilesPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const path = scopePathFromRoute(pathname);
  const query = useResourceQuery(path);
  const resource = query.data && isSamePath(query.data.path, path) ? query.data : undefined;
  useDocumentTitle(resource?.name || t('files.title'));
  // A file or an error is the first screen too (a folder says so itself, FolderListing).
  const showsOther = query.isError || (resource !== undefined && !resource.isDir);
  useEffect(() => {
    if (showsOther) firstScreenShown();
  }, [showsOther]);
  useEffect(() => {
    useSelectionStore.getState().clear();
    return () => useSelectionStore.getState().clear();
  }, [pathname]);

  // /files and /files/ match the same route (the router ignores a trailing slash): add it here.
  if (pathname === '/files') return <Navigate to="/files/" replace />;
  // Without a reply the offline banner speaks: what was on screen stays until the server is back.
  if (query.isError && !isNetworkFailure(query.error)) {
    return <ErrorPage code={errorPageCode(query.error)} />;
  }
  // Folder URLs end with a slash.
  if (resource?.isDir && !path.endsWith('/')) {
    return <Navigate to={routeFromScopePath(path, true)} replace />;
  }
  return (
    <div className="files">
      {resource?.isDir && (
        // Keyed by folder: a search belongs to the folder it was opened in.
        <HeaderSlot name="search">
          <SearchButton key={resource.path} folder={resource.path} />
        </HeaderSlot>
      )}
      <div className="files__bar">
        {/* The page's one heading for screen readers; the breadcrumbs show it to everyone. */}
        {resource?.isDir && <h1 className="visually-hidden">{folderLabel(resource.path)}</h1>}
        <Breadcrumbs path={path} />
        {resource?.isDir && <SelectionBanner />}
      </div>
      {!resource ? (
        <ListingSkeleton />
      ) : resource.isDir ? (
        // Keyed by folder: scroll window, focus and shown count start afresh in each folder.
        <FolderListing key={resource.path} folder={resource} />
      ) : (
        <FileView file={resource} />
      )}
    </div>
  );
}
