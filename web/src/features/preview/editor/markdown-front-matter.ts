import { markdown } from '@codemirror/lang-markdown';
import { tags } from '@lezer/highlight';

// Markdown whose front matter (a `---` YAML or `+++` TOML block at the very top, as the sites'
// posts have: docs/sites.md) is front matter, not text: without this the closing `---` made the
// lines above it a setext heading, painted large and bold.

const FENCES = new Set(['---', '+++']);

/** Markdown support (syntax highlighting) that knows front matter. */
export function markdownWithFrontMatter() {
  return markdown({
    extensions: {
      defineNodes: [
        { name: 'FrontMatter', block: true, style: tags.meta },
        { name: 'FrontMatterMark', style: tags.processingInstruction },
      ],
      parseBlock: [
        {
          name: 'FrontMatter',
          // Before the rules that would read the fence as a rule or a heading's underline.
          before: 'HorizontalRule',
          parse(cx, line) {
            const fence = line.text.trimEnd();
            if (cx.lineStart !== 0 || !FENCES.has(fence)) return false;
            const marks = [cx.elt('FrontMatterMark', 0, line.text.length)];
            // Up to the closing fence; an unclosed one (still being typed) runs to the end.
            while (cx.nextLine()) {
              if (line.text.trimEnd() === fence) {
                marks.push(
                  cx.elt('FrontMatterMark', cx.lineStart, cx.lineStart + line.text.length),
                );
                cx.nextLine();
                break;
              }
            }
            cx.addElement(cx.elt('FrontMatter', 0, cx.prevLineEnd(), marks));
            return true;
          },
        },
      ],
    },
  });
}
