// What code loaded on demand (the global settings screen) uses of the sites feature.
export { SitesSettingsCard } from './admin/SitesSettingsCard.tsx';
