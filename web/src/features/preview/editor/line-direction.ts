import { RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';

// A file's text keeps its own direction, line by line, whatever the interface language: in an
// Arabic interface "Hello, world." still reads left to right (not ".Hello, world"), and an
// Arabic line in an English interface reads right to left (docs/preview-and-editor.md).

const autoLine = Decoration.line({ attributes: { dir: 'auto' } });

/** `dir="auto"` on every line in view: the browser takes each line's direction from its text. */
function lineDecorations(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  let last = -1;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      if (line.from > last) builder.add(line.from, line.from, autoLine);
      last = line.from;
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

const autoDirection = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = lineDecorations(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged) {
        this.decorations = lineDecorations(update.view);
      }
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/**
 * Per-line text direction: CodeMirror reads each line's direction from its element (so the caret
 * and selection move the right way in it), and each line's element gets it from its own text.
 */
export const lineDirection = [EditorView.perLineTextDirection.of(true), autoDirection];
