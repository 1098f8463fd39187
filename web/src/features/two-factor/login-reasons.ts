/** The login's 401 reasons when the password was right (docs/two-factor.md). */
export const CODE_REQUIRED = 'two-factor code required';
export const WRONG_CODE = 'wrong two-factor code';
