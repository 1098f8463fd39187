// What other features may use of the file operations from the first screen. What only code
// loaded on demand uses is in on-demand.ts: re-exported here it would join the initial bundle.
export {
  folderLabel,
  notifyClipboard,
  notifyRenamed,
  notifyTransferred,
  trackTransfer,
} from './operation-feedback.ts';
