// Who may use the shell and the id of its toggle (the panel itself loads on demand).
export { canUseShell } from './can-use-shell.ts';
export { SHELL_TOGGLE_ID } from './shell-ids.ts';
