export { useLiveFolders } from './use-live-folders.ts';
