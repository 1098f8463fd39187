import type { Post } from '@cabinet/protocol';
import { useId, useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { CancelSubmitActions } from '../../components/CancelSubmitActions.tsx';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { isoToLocalInputs, localToIsoWithOffset } from './schedule-time.ts';

/** The browser's time zone, named for the hint ("Europe/Paris"). */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Asks when to publish a post: a date and a time in the user's time zone, sent as ISO 8601 with
 * its offset. Starts an hour ahead (or at the pending schedule); a moment in the past is refused
 * here before the server refuses it.
 */
export function ScheduleDialog({
  post,
  isBusy,
  error,
  onSchedule,
  onClose,
}: {
  post: Post;
  isBusy: boolean;
  /** The server's refusal of the last attempt. */
  error?: string;
  onSchedule: (at: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [[initialDate, initialTime]] = useState(() =>
    isoToLocalInputs(
      post.scheduledAt ? new Date(post.scheduledAt) : new Date(Date.now() + 3_600_000),
    ),
  );
  const [date, setDate] = useState(initialDate);
  const [time, setTime] = useState(initialTime);
  const [problem, setProblem] = useState<string | undefined>();
  const dateRef = useInitialFocus<HTMLInputElement>();

  const submit = () => {
    if (isBusy) return;
    const at = localToIsoWithOffset(date, time);
    if (!at) return setProblem(t('sites.whenInvalid'));
    if (Date.parse(at) <= Date.now()) return setProblem(t('sites.whenPast'));
    setProblem(undefined);
    onSchedule(at);
  };
  const shown = problem ?? error;

  return (
    <Dialog
      title={t('sites.scheduleTitle', { title: isolateName(post.title) })}
      onClose={onClose}
      onSubmit={submit}
      actions={
        <CancelSubmitActions
          cancelLabel={t('buttons.cancel')}
          submitLabel={t('sites.schedule')}
          onCancel={onClose}
          busy={isBusy}
        />
      }
    >
      <div className="schedule-fields">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-date`}>
            {t('sites.date')}
          </label>
          <input
            ref={dateRef}
            id={`${id}-date`}
            className="input"
            type="date"
            value={date}
            required
            aria-describedby={`${id}-zone`}
            aria-invalid={shown ? true : undefined}
            onChange={(e) => setDate(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-time`}>
            {t('sites.time')}
          </label>
          <input
            id={`${id}-time`}
            className="input"
            type="time"
            // Seconds too: a post can be timed to the second, as the server schedules it.
            step={1}
            value={time}
            required
            aria-describedby={`${id}-zone`}
            aria-invalid={shown ? true : undefined}
            onChange={(e) => setTime(e.target.value)}
          />
        </div>
      </div>
      <p id={`${id}-zone`} className="settings__help">
        {t('sites.timeZone', { zone: timeZone() })}
      </p>
      {shown && (
        <p className="field__error" role="alert">
          {shown}
        </p>
      )}
    </Dialog>
  );
}
