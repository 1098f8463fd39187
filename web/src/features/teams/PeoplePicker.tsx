import type { Grantee, PersonMatch } from '@cabinet/protocol';
import { Users, User, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import './teams.css';

/** How many matches the list shows at once: type more to narrow it. */
const MAX_SHOWN = 8;

interface PeoplePickerProps {
  label: string;
  hint?: string;
  /** Who is picked so far, shown as removable chips above the field. */
  chosen: Grantee[];
  onChange: (next: Grantee[]) => void;
  /** What was typed, owned by the parent so that it can look matches up. */
  query: string;
  onQuery: (query: string) => void;
  /** Matches for `query` (the chosen ones are left out here). */
  matches: PersonMatch[];
  isSearching?: boolean;
}

const keyOf = (g: { kind: string; id: number }) => `${g.kind}:${g.id}`;

/** A user's or a group's name with its icon; the name isolated so any script reads right. */
export function GranteeName({ grantee }: { grantee: Grantee }) {
  const { t } = useTranslation();
  const Icon = grantee.kind === 'group' ? Users : User;
  return (
    <span className="grantee">
      <Icon size={16} aria-hidden="true" />
      <span className="visually-hidden">
        {grantee.kind === 'group' ? t('teams.groupLabel') : t('teams.userLabel')}{' '}
      </span>
      <bdi>{grantee.name ?? `#${grantee.id}`}</bdi>
    </span>
  );
}

/**
 * A type-ahead over users and groups (a combobox with a list of options): arrows move through the
 * matches, Enter picks one, Esc closes the list. Picked people show as chips, each with a remove
 * button naming who it removes.
 */
export function PeoplePicker(props: PeoplePickerProps) {
  const { label, hint, chosen, onChange, query, onQuery, matches, isSearching } = props;
  const { t } = useTranslation();
  const id = useId();
  const [active, setActive] = useState(0);
  const [isOpen, setOpen] = useState(false);
  const picked = new Set(chosen.map(keyOf));
  const shown = matches.filter((m) => !picked.has(keyOf(m))).slice(0, MAX_SHOWN);
  const isListed = isOpen && query.trim() !== '';
  const activeIndex = Math.min(active, shown.length - 1);

  const pick = (match: PersonMatch) => {
    onChange([...chosen, { kind: match.kind, id: match.id, name: match.name }]);
    onQuery('');
    setActive(0);
  };

  const handleKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (shown.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + shown.length) % shown.length);
    } else if (event.key === 'Enter') {
      // Enter picks; it never submits the surrounding form while something is typed.
      if (query.trim() === '') return;
      event.preventDefault();
      const match = shown[activeIndex];
      if (isListed && match) pick(match);
    } else if (event.key === 'Escape' && isListed) {
      // Closes the list only, not the dialog around it.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="field people-picker">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <span id={`${id}-hint`} className="settings__help">
          {hint}
        </span>
      )}
      {chosen.length > 0 && (
        <ul className="people-picker__chosen" aria-label={t('teams.chosen', { label })}>
          {chosen.map((grantee) => (
            <li key={keyOf(grantee)} className="people-picker__chip">
              <GranteeName grantee={grantee} />
              <button
                type="button"
                className="icon-button icon-button--small"
                aria-label={t('teams.removePerson', { name: grantee.name ?? `#${grantee.id}` })}
                title={t('teams.removePerson', { name: grantee.name ?? `#${grantee.id}` })}
                onClick={() => onChange(chosen.filter((g) => keyOf(g) !== keyOf(grantee)))}
              >
                <X size={16} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="people-picker__box">
        <input
          id={id}
          className="input"
          type="text"
          role="combobox"
          autoComplete="off"
          placeholder={t('teams.typeToFind')}
          aria-describedby={hint ? `${id}-hint` : undefined}
          aria-autocomplete="list"
          aria-expanded={isListed}
          aria-controls={`${id}-list`}
          aria-activedescendant={
            isListed && shown[activeIndex] ? `${id}-${keyOf(shown[activeIndex])}` : undefined
          }
          value={query}
          onChange={(event) => {
            onQuery(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={handleKey}
          onBlur={() => setOpen(false)}
          onFocus={() => setOpen(true)}
        />
        <ul
          id={`${id}-list`}
          role="listbox"
          className="people-picker__list"
          aria-label={label}
          hidden={!isListed}
        >
          {shown.map((match, index) => (
            <li
              key={keyOf(match)}
              id={`${id}-${keyOf(match)}`}
              role="option"
              aria-selected={index === activeIndex}
              className="people-picker__option"
              // Picked before the field's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(match);
              }}
            >
              <GranteeName grantee={match} />
            </li>
          ))}
          {shown.length === 0 && (
            <li className="people-picker__none" role="presentation">
              {isSearching ? t('files.loading') : t('teams.noMatch')}
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}

/** Matches of `query` among known people, by name without case (the administrators' lists). */
export function matchPeople(people: PersonMatch[], query: string): PersonMatch[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return people.filter((p) => p.name.toLowerCase().includes(needle));
}
