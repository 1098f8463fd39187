// What other features may use of teams (docs/teams.md): the people picker and access fields of
// the settings screens, the share dialog's people section, the listing's marks and grant rules.
export { AccessFields } from './AccessFields.tsx';
export { accessText, canWrite, VIEW_ONLY } from './access-text.ts';
export { withGrant } from './grant-perms.ts';
export { GranteeName, matchPeople, PeoplePicker } from './PeoplePicker.tsx';
export { PeopleShareSection } from './PeopleShareSection.tsx';
export { PeopleSharesCard } from './PeopleSharesCard.tsx';
export { marksOf, withMarks } from './shared-marks.ts';
export { SharedMarkIcon } from './SharedMarkIcon.tsx';
