/** Something left out of the import, and why. */
export interface Skipped {
  what: string;
  reason: string;
}

/**
 * What the mapping noticed on the way: values translated to Cabinet's terms, values Cabinet has
 * no place for, and things the administrator must look at. Filled by the mappers, printed last.
 */
export class ImportNotes {
  readonly mapped: string[] = [];
  readonly noEquivalent: Skipped[] = [];
  readonly warnings: string[] = [];

  map(message: string): void {
    this.mapped.push(message);
  }

  drop(what: string, reason: string): void {
    this.noEquivalent.push({ what, reason });
  }

  warn(message: string): void {
    this.warnings.push(message);
  }
}

/** Cabinet configuration (cabinet.json keys) derived from filebrowser's server settings. */
export type CabinetConfig = Record<string, string | number | boolean>;

/** What an import did (or, in a dry run, would do). */
export interface ImportReport {
  source: string;
  dryRun: boolean;
  /** The Cabinet database did not exist yet (a dry run then plans against an empty one). */
  intoNewDatabase: boolean;
  users: { imported: string[]; skipped: Skipped[] };
  shares: { imported: string[]; unbound: string[]; skipped: Skipped[] };
  /** Whether filebrowser's global settings replaced Cabinet's (not with --merge). */
  settingsImported: boolean;
  /** The administrator a first start generates, when the database held only it. */
  freshAdmin?: { username: string; outcome: 'replaced' | 'kept' };
  notes: ImportNotes;
  cabinetConfig: CabinetConfig;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Names for one line of the report: the first 20, then how many more. */
function listed(names: string[]): string {
  const shown = names.slice(0, 20).join(', ');
  return names.length > 20 ? `${shown} and ${names.length - 20} more` : shown;
}

/** The report as lines for a terminal: a summary first, then the details by kind. */
export function formatReport(report: ImportReport): string[] {
  const lines: string[] = [];
  const start = report.dryRun ? 'Dry run (nothing changed): would import' : 'imported';
  const users = plural(report.users.imported.length, 'user');
  const shares = plural(report.shares.imported.length, 'share link');
  const settings = report.settingsImported ? 'the settings' : 'no settings';
  const target = report.intoNewDatabase ? ' into a new Cabinet database' : '';
  lines.push(`${start} ${users}, ${shares} and ${settings} from ${report.source}${target}`);
  if (report.users.imported.length > 0) {
    lines.push(`users: ${listed(report.users.imported)}`);
  }
  if (report.freshAdmin) {
    const admin = `the unused administrator "${report.freshAdmin.username}" of this new Cabinet`;
    lines.push(
      report.freshAdmin.outcome === 'kept'
        ? `${admin} is kept (no imported user is an administrator)`
        : `${admin} ${report.dryRun ? 'would be' : 'was'} replaced by the imported accounts`,
    );
  }
  for (const s of report.users.skipped) lines.push(`skipped ${s.what}: ${s.reason}`);
  for (const s of report.shares.skipped) lines.push(`skipped ${s.what}: ${s.reason}`);
  if (report.shares.unbound.length > 0) {
    const unbound = listed(report.shares.unbound);
    lines.push(
      `share links whose item is not under this Cabinet's root (${unbound}): kept; each opens ` +
        'by its path once the item is there',
    );
  }
  if (!report.settingsImported) {
    lines.push(
      "settings: this Cabinet's settings are kept (--merge); filebrowser's were not applied",
    );
  }
  for (const m of report.notes.mapped) lines.push(`mapped: ${m}`);
  for (const s of report.notes.noEquivalent) lines.push(`not imported: ${s.what}: ${s.reason}`);
  for (const w of report.notes.warnings) lines.push(`warning: ${w}`);
  return lines;
}
