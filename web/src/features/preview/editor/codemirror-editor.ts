import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  indentOnInput,
  LanguageDescription,
  syntaxHighlighting,
} from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { highlightSelectionMatches, openSearchPanel, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import { oneDarkHighlightStyle } from '@codemirror/theme-one-dark';
import { lightHighlightStyle } from './light-highlight.ts';
import { lineDirection } from './line-direction.ts';
import {
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from '@codemirror/view';

// This module is the editor chunk: it is imported dynamically when a text file opens, so none of
// CodeMirror is in the initial bundle. Language grammars are further chunks of their own
// (@codemirror/language-data loads one when a file of its kind opens).

export type EditorTheme = 'light' | 'dark';

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  fileName: string;
  isReadOnly: boolean;
  theme: EditorTheme;
  /** Accessible name of the text area. */
  label: string;
  /** Called after every change of the text with whether it differs from the saved text. */
  onDirtyChange(isDirty: boolean): void;
  /** Called after every change of the text (the sites editor's live preview follows it). */
  onChange?(): void;
  /** Wraps long lines at the editor's width (the post editor: prose, not code). */
  wrapLines?: boolean;
}

/** What the React side may do with a mounted editor. */
export interface EditorHandle {
  /** The current text. */
  text(): string;
  /** Records the text that is now on disk; the editor is clean when its text equals it. */
  markSaved(text: string): void;
  setTheme(theme: EditorTheme): void;
  openSearch(): void;
  focus(): void;
  destroy(): void;
}

/** Colours come from the app's tokens, so the editor follows the light and dark themes. */
const appTheme = (theme: EditorTheme) => [
  EditorView.theme(
    {
      '&': { height: '100%', backgroundColor: 'var(--surface-raised)', color: 'var(--text)' },
      '.cm-scroller': { fontFamily: 'var(--font-mono)', fontSize: '14px', lineHeight: '1.5' },
      '.cm-gutters': {
        backgroundColor: 'var(--surface)',
        color: 'var(--text-muted)',
        // Between the numbers and the text on either side: the gutter follows the interface's
        // direction (on the right in Arabic).
        borderRight: 'none',
        borderInlineEnd: '1px solid var(--border)',
      },
      '.cm-activeLine': { backgroundColor: 'var(--hover)' },
      '.cm-activeLineGutter': { backgroundColor: 'var(--hover)', color: 'var(--text)' },
      '&.cm-focused': { outline: 'none' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
      '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground':
        { backgroundColor: 'var(--selected)' },
      '.cm-panels': { backgroundColor: 'var(--surface)', color: 'var(--text)' },
      '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
      '.cm-textfield': {
        backgroundColor: 'var(--surface-raised)',
        color: 'var(--text)',
        border: '1px solid var(--border)',
        borderRadius: '4px',
      },
      '.cm-button': {
        backgroundImage: 'none',
        backgroundColor: 'var(--surface-raised)',
        color: 'var(--text)',
        border: '1px solid var(--border)',
        borderRadius: '4px',
      },
      '.cm-searchMatch': {
        backgroundColor: 'var(--accent-soft)',
        outline: '1px solid var(--accent)',
      },
      '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'var(--selected)' },
    },
    { dark: theme === 'dark' },
  ),
  syntaxHighlighting(theme === 'dark' ? oneDarkHighlightStyle : lightHighlightStyle, {
    fallback: true,
  }),
];

const MARKDOWN_FILE = /\.(md|markdown|mkd)$/i;

/** Mounts CodeMirror 6 with line numbers, search and replace, history and highlighting. */
export function createEditor(options: EditorOptions): EditorHandle {
  const themeSlot = new Compartment();
  const languageSlot = new Compartment();
  let saved: Text | null = null;
  let isDirty = false;

  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        foldGutter(),
        drawSelection(),
        dropCursor(),
        indentOnInput(),
        bracketMatching(),
        rectangularSelection(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        keymap.of([
          ...searchKeymap,
          ...historyKeymap,
          ...foldKeymap,
          ...defaultKeymap,
          indentWithTab,
        ]),
        lineDirection,
        options.wrapLines ? EditorView.lineWrapping : [],
        EditorState.readOnly.of(options.isReadOnly),
        EditorView.contentAttributes.of({
          'aria-label': options.label,
          ...(options.isReadOnly ? { 'aria-readonly': 'true' } : {}),
        }),
        themeSlot.of(appTheme(options.theme)),
        languageSlot.of([]),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          options.onChange?.();
          const now = !saved || !update.state.doc.eq(saved);
          if (now !== isDirty) {
            isDirty = now;
            options.onDirtyChange(now);
          }
        }),
      ],
    }),
  });
  saved = view.state.doc;

  // Markdown is read with its front matter (a post's `---`/`+++` block is not a heading).
  const support = MARKDOWN_FILE.test(options.fileName)
    ? import('./markdown-front-matter.ts').then((m) => m.markdownWithFrontMatter())
    : LanguageDescription.matchFilename(languages, options.fileName)?.load();
  support
    ?.then((support) => view.dispatch({ effects: languageSlot.reconfigure(support) }))
    .catch((error: unknown) => console.warn('Cabinet: no syntax highlighting', error));

  return {
    text: () => view.state.doc.toString(),
    markSaved(text) {
      saved =
        view.state.sliceDoc() === text ? view.state.doc : EditorState.create({ doc: text }).doc;
      const now = !view.state.doc.eq(saved);
      if (now !== isDirty) {
        isDirty = now;
        options.onDirtyChange(now);
      }
    },
    setTheme: (theme) => view.dispatch({ effects: themeSlot.reconfigure(appTheme(theme)) }),
    openSearch: () => openSearchPanel(view),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
