// The error pages other features show in place of what could not be loaded.
export { ErrorPage } from './ErrorPage.tsx';
