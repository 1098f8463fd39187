// The upload button and the sources a drop turns into uploads.
export { UploadButton } from './UploadButton.tsx';
export * from './upload-sources.ts';
