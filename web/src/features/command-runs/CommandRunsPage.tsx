import { HOOK_KEYS, type CommandRun } from '@cabinet/protocol';
import { RefreshCw } from 'lucide-react';
import { useCommandRunsQuery } from '../../api/command-runs/command-runs-query.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import './command-runs.css';

/** Runs shown: the server keeps them all, people read the latest. */
const SHOWN_RUNS = 200;

/** The result column: the exit status, or why it did not run to its end. */
function useResultText() {
  const { t } = useTranslation();
  return (run: CommandRun) =>
    run.outcome === 'exited'
      ? t('commandRuns.exitStatus', { code: run.exitCode })
      : t(`commandRuns.outcome.${run.outcome}`);
}

/** The kind column: "Shell", or the hook's event in words ("After upload", not `after_upload`). */
function useKindText() {
  const { t } = useTranslation();
  return (kind: string) => {
    if (kind === 'command') return t('commandRuns.shell');
    // A kind this client does not know (a newer server's event) is shown as it came.
    return HOOK_KEYS.includes(kind) ? t(`firstWeekAdmin.hookEvent.${kind}`) : kind;
  };
}

/**
 * /settings/commands (administrators, execution enabled): who ran which command or hook, where,
 * how it ended, when and for how long, newest first.
 */
export function CommandRunsPage() {
  const { t, i18n } = useTranslation();
  const query = useCommandRunsQuery(SHOWN_RUNS);
  const resultText = useResultText();
  const kindText = useKindText();
  return (
    <section className="settings__screen" aria-labelledby="command-runs-title">
      <div className="command-runs__head">
        <h1 id="command-runs-title" className="settings__title">
          {t('commandRuns.title')}
        </h1>
        <button
          type="button"
          className="icon-button"
          aria-label={t('commandRuns.refresh')}
          title={t('commandRuns.refresh')}
          onClick={() => void query.refetch()}
        >
          <RefreshCw size={20} aria-hidden="true" />
        </button>
      </div>
      {query.isError ? (
        <p role="alert">{t('commandRuns.loadFailed')}</p>
      ) : !query.data ? (
        <p>{t('commandRuns.loading')}</p>
      ) : query.data.length === 0 ? (
        <p>{t('commandRuns.empty')}</p>
      ) : (
        <div className="command-runs__scroll" tabIndex={0} aria-labelledby="command-runs-title">
          <table className="command-runs">
            <thead>
              <tr>
                <th scope="col">{t('commandRuns.started')}</th>
                <th scope="col">{t('commandRuns.user')}</th>
                <th scope="col">{t('commandRuns.kind')}</th>
                <th scope="col">{t('commandRuns.command')}</th>
                <th scope="col">{t('commandRuns.where')}</th>
                <th scope="col">{t('commandRuns.result')}</th>
                <th scope="col">{t('commandRuns.duration')}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((run) => (
                <tr key={run.id}>
                  <td>{formatDateTime(new Date(run.startedAt), i18n.language)}</td>
                  <td>
                    <bdi>{run.username}</bdi>
                  </td>
                  <td>{kindText(run.kind)}</td>
                  <td className="command-runs__line">
                    <bdi>{run.line}</bdi>
                  </td>
                  <td className="command-runs__line">
                    <bdi>{run.path}</bdi>
                  </td>
                  <td
                    className={
                      run.outcome === 'exited' && run.exitCode === 0 ? '' : 'command-runs__failed'
                    }
                  >
                    {resultText(run)}
                  </td>
                  <td>{t('commandRuns.ms', { ms: run.durationMs })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
