// What other features may use of app passwords: the card of the profile and the user screen.
export { AppPasswordsCard } from './AppPasswordsCard.tsx';
