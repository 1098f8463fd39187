/** Storage quotas in the web app: the sidebar's usage bar and the sizes admins type. */
export { QuotaMeter } from './QuotaMeter.tsx';
export { parseSize, sizeInputText } from './size-input.ts';
