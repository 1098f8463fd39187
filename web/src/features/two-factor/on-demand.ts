// The profile's two-factor card and the status call the login makes after signing in. Import this
// only from code that is itself loaded on demand, or with import(): a static import from the first
// screen would pull it into the initial bundle.
export { TwoFactorCard } from './TwoFactorCard.tsx';
export { fetchTwoFactorStatus } from './two-factor-api.ts';
export { LoginCodeField } from './LoginCodeField.tsx';
export { TwoFactorPolicyCard } from './admin/TwoFactorPolicyCard.tsx';
export { UserTwoFactorCard } from './admin/UserTwoFactorCard.tsx';
