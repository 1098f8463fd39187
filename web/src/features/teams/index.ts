// What the first screen may use of teams (docs/teams.md): the listing's marks and the grant's
// narrowing of permissions. The screens and dialogs' parts are in on-demand.ts.
export { withGrant } from './grant-perms.ts';
export { isGrantTop, marksOf, withMarks } from './shared-marks.ts';
export { SharedMarkIcon } from './SharedMarkIcon.tsx';
