import { Eye, FilePen } from 'lucide-react';
import { useTranslation } from '../../../i18n/use-translation.ts';

/** The two ways to look at a Markdown file in the editor. */
export type MarkdownMode = 'preview' | 'edit';

/**
 * Preview / Edit for a Markdown file: two toggle buttons side by side in the bar, the current one
 * pressed, so it is always clear which one is shown and how to get to the other.
 */
export function MarkdownModeSwitch(props: {
  mode: MarkdownMode;
  onChange(mode: MarkdownMode): void;
}) {
  const { t } = useTranslation();
  const options = [
    { mode: 'preview', label: t('editor.preview'), Icon: Eye },
    { mode: 'edit', label: t('preview.edit'), Icon: FilePen },
  ] as const;
  return (
    <div className="mode-switch" role="group" aria-label={t('editor.modeSwitch')}>
      {options.map(({ mode, label, Icon }) => (
        <button
          key={mode}
          type="button"
          className="mode-switch__option"
          aria-pressed={props.mode === mode}
          onClick={() => props.onChange(mode)}
        >
          <Icon size={16} aria-hidden="true" />
          <span className="preview-bar__label">{label}</span>
        </button>
      ))}
    </div>
  );
}
