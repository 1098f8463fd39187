// The file screen (viewers and the text editor) the files page shows for a file.
export { FileView } from './FileView.tsx';
