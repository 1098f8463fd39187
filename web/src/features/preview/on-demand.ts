// What code that is itself loaded on demand (the sites editor) uses of the text editor: the
// CodeMirror chunk (fetched when called), the app's theme for it, and the unsaved-changes guard.
export { UnsavedChangesGuard } from './editor/UnsavedChangesGuard.tsx';
export { useThemeName } from './editor/use-theme-name.ts';
export type { EditorHandle } from './editor/codemirror-editor.ts';
export const loadCodeEditor = () => import('./editor/codemirror-editor.ts');
