// The banner that says the server cannot be reached.
export { OfflineBanner } from './OfflineBanner.tsx';
