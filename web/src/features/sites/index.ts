// What the always-loaded shell (the sidebar) needs of the sites feature: the screen's route.
export { SITES_ROUTE } from './site-routes.ts';
