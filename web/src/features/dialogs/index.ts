// The host that shows the open dialog.
export { DialogHost } from './DialogHost.tsx';
