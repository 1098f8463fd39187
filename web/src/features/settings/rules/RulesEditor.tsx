import { useId, useRef, type KeyboardEvent } from 'react';
import type { Rule } from '@cabinet/protocol';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { newRule, ruleProblem, ruleText, withRuleText } from './rule-rows.ts';

interface RulesEditorProps {
  rules: Rule[];
  onChange: (rules: Rule[]) => void;
  /** The server's refusal of the list as a whole (e.g. an invalid pattern), shown below it. */
  error?: string;
  /** The global rules apply to every user; a user's rules to that user (the help text says so). */
  isGlobal?: boolean;
}

/** Enter in a rule's text would submit the whole form; here it does nothing. */
function suppressEnter(event: KeyboardEvent<HTMLInputElement>) {
  if (event.key === 'Enter') event.preventDefault();
}

/**
 * The rules editor: rows with Regex and Allow checkboxes, the path or
 * pattern, and a remove button; New adds a row. An invalid pattern is marked on its row as it is
 * typed, before anything is saved.
 */
export function RulesEditor({ rules, onChange, error, isGlobal = false }: RulesEditorProps) {
  const { t } = useTranslation();
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const replace = (index: number, rule: Rule) =>
    onChange(rules.map((old, i) => (i === index ? rule : old)));
  const remove = (index: number) => onChange(rules.filter((_rule, i) => i !== index));
  const add = () => {
    onChange([...rules, newRule()]);
    // Focus the new row's text so typing can start at once.
    requestAnimationFrame(() => {
      const inputs = listRef.current?.querySelectorAll<HTMLInputElement>('input[type="text"]');
      inputs?.[inputs.length - 1]?.focus();
    });
  };

  return (
    <fieldset className="rules" aria-describedby={`${id}-help`}>
      <legend className="field__label">
        {t(isGlobal ? 'settings.globalRules' : 'settings.rules')}
      </legend>
      <p id={`${id}-help`} className="settings__help">
        {t(isGlobal ? 'settings.globalRulesHelp' : 'settings.rulesHelp')}
      </p>
      {rules.length > 0 && (
        <ol ref={listRef} className="rules__list">
          {rules.map((rule, index) => {
            const problem = ruleProblem(rule);
            const n = index + 1;
            return (
              <li key={index} className="rules__row">
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={rule.regex}
                    aria-label={t('settings.ruleRegexOf', { n })}
                    onChange={(e) => replace(index, { ...rule, regex: e.target.checked })}
                  />
                  <span aria-hidden="true">{t('settings.ruleRegex')}</span>
                </label>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={rule.allow}
                    aria-label={t('settings.ruleAllowOf', { n })}
                    onChange={(e) => replace(index, { ...rule, allow: e.target.checked })}
                  />
                  <span aria-hidden="true">{t('settings.ruleAllow')}</span>
                </label>
                <input
                  type="text"
                  className="input rules__text"
                  value={ruleText(rule)}
                  placeholder={rule.regex ? t('settings.rulePattern') : t('settings.rulePath')}
                  aria-label={t(rule.regex ? 'settings.rulePatternOf' : 'settings.rulePathOf', {
                    n,
                  })}
                  aria-invalid={problem !== undefined}
                  aria-describedby={problem ? `${id}-problem-${index}` : undefined}
                  data-state={problem ? 'mismatch' : undefined}
                  onKeyDown={suppressEnter}
                  onChange={(e) => replace(index, withRuleText(rule, e.target.value))}
                />
                <button
                  type="button"
                  className="icon-button rules__remove"
                  aria-label={t('settings.ruleRemoveOf', { n })}
                  title={t('settings.ruleRemove')}
                  onClick={() => remove(index)}
                >
                  <span aria-hidden="true">−</span>
                </button>
                {problem && (
                  <p id={`${id}-problem-${index}`} className="field__error rules__problem">
                    {t('settings.ruleInvalid', { reason: problem })}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="button" className="button button--secondary button--small" onClick={add}>
          {t('settings.ruleNew')}
        </button>
      </div>
    </fieldset>
  );
}
