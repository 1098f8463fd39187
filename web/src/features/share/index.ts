// What other features may use of sharing: the share dialog and a share link's row.
export { ShareDialog } from './ShareDialog.tsx';
export { ShareLinkItem, useDownloadsText, useExpiryText } from './ShareLinkItem.tsx';
export { copyText } from './copy-text.ts';
