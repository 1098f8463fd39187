import { asObject, text } from './json-fields.ts';
import type { CabinetConfig, ImportNotes } from './import-report.ts';

/** The sign-in part of the import: Cabinet configuration, and a hook kept switched off. */
export interface MappedAuth {
  config: CabinetConfig;
  /** filebrowser's `hook` method: its command, recorded but never run (see docs/migrate.md). */
  disabledHook?: { command: string };
}

/**
 * Maps filebrowser's auth method (`settings.authMethod`) and its options (the `auther` record)
 * onto Cabinet's `authMethod` and its keys. json (with its reCAPTCHA keys), proxy (with its
 * header) and noauth carry over. hook runs an arbitrary program with each user's password in its
 * environment, so it is imported switched off: Cabinet signs in with the passwords filebrowser
 * stored after each hook login. Other methods have no equivalent and fall back to passwords.
 */
export function mapAuth(
  method: string,
  autherJson: unknown,
  serverHook: string,
  notes: ImportNotes,
): MappedAuth {
  const auther = asObject(autherJson) ?? {};
  switch (method || 'json') {
    case 'json': {
      const config: CabinetConfig = { authMethod: 'json' };
      notes.map('auth method json → authMethod "json"');
      const recaptcha = asObject(auther.recaptcha);
      if (recaptcha && text(recaptcha, 'key') && text(recaptcha, 'secret')) {
        if (text(recaptcha, 'host')) config.recaptchaHost = text(recaptcha, 'host');
        config.recaptchaKey = text(recaptcha, 'key');
        config.recaptchaSecret = text(recaptcha, 'secret');
        notes.map('reCAPTCHA of the login page → recaptchaHost, recaptchaKey, recaptchaSecret');
      }
      return { config };
    }
    case 'proxy': {
      const header = text(auther, 'header');
      if (!header) notes.warn("the proxy method names no header; Cabinet's default is used");
      notes.map(
        `auth method proxy → authMethod "proxy"${header ? `, authHeader "${header}"` : ''}`,
      );
      notes.warn(
        'proxy sign-in trusts the header: make sure only the reverse proxy can reach Cabinet',
      );
      return { config: { authMethod: 'proxy', ...(header && { authHeader: header }) } };
    }
    case 'noauth':
      notes.map('auth method noauth → authMethod "noauth"');
      notes.warn('noauth: whoever reaches Cabinet is signed in as the first user, as before');
      return { config: { authMethod: 'noauth' } };
    case 'hook': {
      const command = text(auther, 'command') || serverHook;
      notes.warn(
        `auth method hook (command "${command}") is imported switched off: it would run a ` +
          "program with each user's password in its environment. Users sign in with the " +
          'password of their last filebrowser login; docs/migrate.md says how to put an ' +
          'external check back deliberately',
      );
      return { config: { authMethod: 'json' }, disabledHook: { command } };
    }
    default:
      notes.drop(
        `auth method "${method}"`,
        'Cabinet has no such sign-in; accounts sign in with the password filebrowser stored, ' +
          'where it stored one',
      );
      return { config: { authMethod: 'json' } };
  }
}
