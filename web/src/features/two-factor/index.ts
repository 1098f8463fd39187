// What the first screen (login) needs of two-factor sign-in: the login's 401 reasons. The rest
// loads on demand (on-demand.ts).
export { CODE_REQUIRED, WRONG_CODE } from './login-reasons.ts';
