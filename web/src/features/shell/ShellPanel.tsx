import { useQueryClient } from '@tanstack/react-query';
import { Square, X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'react-router';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { useShellStore } from '../../stores/shell-store.ts';
import { currentFolderOf } from '../../paths/file-paths.ts';
import { runCommand, type CommandEnd } from '../../api/command/command-socket.ts';
import { CommandsHelp, refusedCommandOf } from './CommandsHelp.tsx';
import { readHistory, rememberCommand } from './shell-history.ts';
import { SHELL_TOGGLE_ID } from './shell-ids.ts';
import './shell.css';

/** One line of the panel: a command typed, its output, or a note on how it ended. */
interface ShellEntry {
  id: number;
  kind: 'command' | 'output' | 'note' | 'error';
  text: string;
}

/** Lines kept on screen; older ones scroll away for good. */
const MAX_ENTRIES = 5000;
let nextId = 0;

/**
 * The shell panel: a prompt that runs commands in the folder on screen,
 * output streamed as it comes, history with Up and Down (kept per user in this browser), `clear`
 * empties the panel, `exit` closes it, Ctrl+C or Stop ends the running command. The listing
 * reloads after each command, which may have changed the folder.
 */
export function ShellPanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const username = user?.username ?? '';
  const folder = currentFolderOf(useLocation().pathname);
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<ShellEntry[]>([]);
  const [line, setLine] = useState('');
  const [history, setHistory] = useState(() => readHistory(username));
  /** Position while browsing the history with Up and Down (history.length: the new line). */
  const [cursor, setCursor] = useState(history.length);
  const [stop, setStop] = useState<(() => void) | null>(null);
  /** The last line refused for a command the user may not run, and that command. */
  const [refusal, setRefusal] = useState<{ line: string; command: string } | undefined>();
  const outputRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const isRunning = stop !== null;

  useEffect(() => inputRef.current?.focus(), []);
  useLayoutEffect(() => {
    const output = outputRef.current;
    if (output) output.scrollTop = output.scrollHeight;
  }, [entries]);
  // A command still running when the panel goes away is stopped with it.
  const stopRef = useRef(stop);
  useEffect(() => {
    stopRef.current = stop;
  }, [stop]);
  useEffect(() => () => stopRef.current?.(), []);

  const add = (kind: ShellEntry['kind'], text: string): number => {
    const id = nextId++;
    setEntries((all) => [...all, { id, kind, text }].slice(-MAX_ENTRIES));
    return id;
  };
  /** A refusal arrives as ordinary messages; the close says so, and they are shown as errors. */
  const markRefused = (commandId: number) =>
    setEntries((all) =>
      all.map((e) => (e.id > commandId && e.kind === 'output' ? { ...e, kind: 'error' } : e)),
    );

  const close = () => {
    useShellStore.getState().setOpen(false);
    document.getElementById(SHELL_TOGGLE_ID)?.focus();
  };

  const endNote = (end: CommandEnd): [ShellEntry['kind'], string] | undefined => {
    if (end.kind === 'stopped') return ['note', t('shell.stopped')];
    if (end.kind === 'failed') return ['error', end.reason || t('shell.couldNotRun')];
    return undefined;
  };

  const submit = () => {
    const command = line.trim();
    if (command === '' || isRunning) return;
    const remembered = rememberCommand(username, history, command);
    setHistory(remembered);
    setCursor(remembered.length);
    setLine('');
    setRefusal(undefined);
    if (command === 'clear') {
      setEntries([]);
      return;
    }
    if (command === 'exit') {
      close();
      return;
    }
    const commandId = add('command', command);
    const stopCommand = runCommand(folder, command, {
      onLine: (text) => {
        add('output', text);
        const refused = refusedCommandOf(text);
        if (refused !== undefined) setRefusal({ line: command, command: refused });
      },
      onEnd: (end) => {
        if (end.kind === 'refused') markRefused(commandId);
        const note = endNote(end);
        if (note) add(...note);
        setStop(null);
        void queryClient.invalidateQueries({ queryKey: resourceKeys.all });
        inputRef.current?.focus();
      },
    });
    setStop(() => stopCommand);
  };

  /** The refused command is allowed now: say so, and put the line back at the prompt. */
  const handleAllowed = (allowed: string) => {
    add('note', t('firstWeekAdmin.allowed', { command: allowed }));
    if (refusal) setLine(refusal.line);
    setRefusal(undefined);
    inputRef.current?.focus();
  };

  const browse = (step: -1 | 1) => {
    const next = Math.min(Math.max(cursor + step, 0), history.length);
    setCursor(next);
    setLine(history[next] ?? '');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowUp') {
      event.preventDefault();
      browse(-1);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      browse(1);
    } else if (event.key === 'c' && event.ctrlKey && isRunning) {
      // Ctrl+C copies a selection as usual; with none it stops the command, as in a terminal.
      const input = event.currentTarget;
      if (input.selectionStart !== input.selectionEnd) return;
      event.preventDefault();
      stop?.();
    } else if (event.key === 'Escape' && !isRunning) {
      event.preventDefault();
      close();
    }
  };

  return (
    <section id="shell-panel" className="shell" aria-label={t('shell.title')}>
      <div className="shell__bar">
        <h2 className="shell__title">{t('shell.title')}</h2>
        <span className="shell__folder" title={folder}>
          {folder}
        </span>
        {isRunning && (
          <button
            type="button"
            className="button button--secondary shell__stop"
            onClick={() => stop?.()}
          >
            <Square size={14} aria-hidden="true" />
            {t('shell.stop')}
          </button>
        )}
        <button
          type="button"
          className="icon-button"
          aria-label={t('shell.close')}
          title={t('shell.close')}
          onClick={close}
        >
          <X size={20} aria-hidden="true" />
        </button>
      </div>
      <div
        ref={outputRef}
        className="shell__output"
        role="log"
        aria-label={t('shell.output')}
        aria-busy={isRunning}
        tabIndex={0}
      >
        {entries.length === 0 ? (
          <>
            <p className="shell__hint">{t('shell.hint')}</p>
            {user?.commands.length === 0 && (
              <CommandsHelp refused={undefined} onAllowed={handleAllowed} />
            )}
          </>
        ) : (
          entries.map((entry) => (
            <pre key={entry.id} className={`shell__line shell__line--${entry.kind}`}>
              {entry.kind === 'command' ? `$ ${entry.text}` : entry.text}
            </pre>
          ))
        )}
        {refusal && (
          <CommandsHelp key={refusal.command} refused={refusal.command} onAllowed={handleAllowed} />
        )}
      </div>
      <form
        className="shell__prompt"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <span className="shell__sigil" aria-hidden="true">
          $
        </span>
        <input
          ref={inputRef}
          className="shell__input"
          aria-label={t('shell.command')}
          placeholder={isRunning ? t('shell.running') : t('shell.placeholder')}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          value={line}
          onChange={(event) => {
            setLine(event.target.value);
            setCursor(history.length);
          }}
          onKeyDown={handleKeyDown}
        />
      </form>
    </section>
  );
}
