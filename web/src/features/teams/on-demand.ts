// What code loaded on demand may use of teams: the people picker and access fields of the settings
// screens, the share dialog's people section and the Shares screen's card. Import this only from
// code that is itself loaded on demand: a static import from the first screen would pull all of
// it into the initial bundle.
export { AccessFields } from './AccessFields.tsx';
export { accessText, canWrite, VIEW_ONLY } from './access-text.ts';
export { GranteeName, matchPeople, PeoplePicker } from './PeoplePicker.tsx';
export { PeopleShareSection } from './PeopleShareSection.tsx';
export { PeopleSharesCard } from './PeopleSharesCard.tsx';
