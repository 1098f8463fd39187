import { defaultHighlightStyle, HighlightStyle } from '@codemirror/language';

/**
 * CodeMirror's default colours, with the three that fall below 4.5:1 on a white page (and on the
 * active line's tint) made darker: regular expressions and escapes (#e40, 3.8:1), invalid text
 * (#f00, 4.0:1) and type names (#085, 4.5:1 on white but 4.0:1 on the active line). Every colour
 * here is at least 5:1 on the selected-row tint, the palest background the editor draws.
 */
const DARKER: Readonly<Record<string, string>> = {
  '#e40': '#b33000',
  '#f00': '#c00000',
  '#085': '#007047',
};

/** The light theme's syntax colours (WCAG AA for every token). */
export const lightHighlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) => {
    const color = typeof spec.color === 'string' ? DARKER[spec.color] : undefined;
    return color ? { ...spec, color } : spec;
  }),
);
