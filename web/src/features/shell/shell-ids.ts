/** The id of the header button that opens the shell; focus goes back to it when the panel closes. */
export const SHELL_TOGGLE_ID = 'shell-toggle';
