import { useId, useState, type FormEvent } from 'react';
import { HOOK_KEYS } from '@cabinet/protocol';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { CardFooter } from './CardFooter.tsx';
import type { SettingsCardProps } from './GlobalSettingsPage.tsx';

/** "before_copy" → "Before Copy": the event name capitalised. */
export function eventTitle(key: string): string {
  return key
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** One command per line, trimmed, empty lines dropped. */
export function splitLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * Card 3 (only when the server runs commands): one collapsible text area per hook event, one
 * command per line.
 */
export function CommandRunnerCard({ settings, onSave, isSaving, error }: SettingsCardProps) {
  const { t } = useTranslation();
  const id = useId();
  // Events with commands start open; toggling afterwards is the user's (the prop never changes).
  const [initiallyOpen] = useState(
    () => new Set(HOOK_KEYS.filter((key) => (settings.commands[key] ?? []).length > 0)),
  );
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(HOOK_KEYS.map((key) => [key, (settings.commands[key] ?? []).join('\n')])),
  );

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isSaving) return;
    const commands = Object.fromEntries(HOOK_KEYS.map((k) => [k, splitLines(texts[k] ?? '')]));
    onSave({ ...settings, commands });
  };

  return (
    <form className="card" onSubmit={handleSubmit} aria-labelledby="global-commands-title">
      <h2 id="global-commands-title" className="card__title">
        {t('settings.commandRunner')}
      </h2>
      <p className="settings__help">{t('settings.commandRunnerHelp')}</p>
      {HOOK_KEYS.map((key) => (
        <details key={key} className="hook" open={initiallyOpen.has(key)}>
          <summary className="hook__summary">{eventTitle(key)}</summary>
          <textarea
            id={`${id}-${key}`}
            className="input hook__text"
            aria-label={eventTitle(key)}
            rows={3}
            value={texts[key] ?? ''}
            onChange={(e) => setTexts((old) => ({ ...old, [key]: e.target.value }))}
          />
        </details>
      ))}
      <CardFooter error={error} isSaving={isSaving} />
    </form>
  );
}
