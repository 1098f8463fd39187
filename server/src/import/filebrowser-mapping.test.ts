import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../services/settings.defaults.ts';
import { mapAuth } from './filebrowser-auth.ts';
import { filebrowserOptions, noOptions, parseConfigFile } from './filebrowser-config-file.ts';
import { fbLink, fbServer, fbSettings, fbUser } from './filebrowser-db.fixture.ts';
import { mapServer } from './filebrowser-server.ts';
import { mapSettings } from './filebrowser-settings.ts';
import { mapShare } from './filebrowser-share.ts';
import { mapUser } from './filebrowser-user.ts';
import { formatDuration, parseGoDuration } from './go-duration.ts';
import { ImportNotes } from './import-report.ts';

const BCRYPT = `$2a$10$${'a'.repeat(53)}`;
const defaults = defaultSettings().defaults;

function user(json: unknown) {
  const notes = new ImportNotes();
  return { result: mapUser(json, 'user #1', defaults, notes), notes };
}

describe('filebrowser users', () => {
  it('keep name, scope, profile, permissions, commands and rules; the bcrypt hash as it is', () => {
    const rules = [
      { regex: false, allow: false, path: '/secret', regexp: { raw: '' } },
      { regex: true, allow: false, path: '', regexp: { raw: '\\.tmp$' } },
    ];
    const { result } = user(
      fbUser(7, 'bob', BCRYPT, {
        scope: '/users/bob',
        locale: 'de',
        lockPassword: true,
        viewMode: 'list',
        singleClick: true,
        perm: { ...fbUser(0, '', '').perm!, delete: false, execute: false },
        commands: ['ls', 'git'],
        sorting: { by: 'modified', asc: true },
        rules,
        hideDotfiles: true,
        dateFormat: true,
      }),
    );
    expect(result).toEqual({
      user: {
        sourceId: 7,
        hasUsablePassword: true,
        record: {
          username: 'bob',
          passwordHash: BCRYPT,
          scope: '/users/bob',
          locale: 'de',
          lockPassword: true,
          viewMode: 'list',
          singleClick: true,
          redirectAfterCopyMove: true,
          perm: {
            admin: false,
            execute: false,
            create: true,
            rename: true,
            modify: true,
            delete: false,
            share: true,
            download: true,
          },
          commands: ['ls', 'git'],
          sorting: { by: 'modified', asc: true },
          rules,
          hideDotfiles: true,
          dateFormat: true,
          aceEditorTheme: '',
        },
      },
    });
  });

  it.each([
    ['pt_BR', 'pt-br'],
    ['zhCN', 'zh-cn'],
    ['zh_TW', 'zh-tw'],
    ['sv', 'sv-se'],
    ['en_US', 'en'],
    ['tlh', ''],
  ])('map the locale %s onto %s, and say so', (locale, code) => {
    const { result, notes } = user(fbUser(1, 'ana', BCRYPT, { locale }));
    expect('user' in result && result.user.record.locale).toBe(code);
    expect(notes.mapped.join('\n')).toContain(`"${locale}"`);
  });

  it('are administrators with every permission when filebrowser says admin', () => {
    const { result } = user(
      fbUser(1, 'root', BCRYPT, { perm: { admin: true }, lockPassword: true }),
    );
    expect('user' in result && result.user.record.perm).toEqual({
      admin: true,
      execute: true,
      create: true,
      rename: true,
      modify: true,
      delete: true,
      share: true,
      download: true,
    });
    expect('user' in result && result.user.record.lockPassword).toBe(false);
  });

  it.each(['', 'plain-text', '$2x$10$' + 'a'.repeat(53), '$argon2id$v=19$m=1,t=1,p=1$x$y'])(
    'without a bcrypt hash (%j) get no usable password, and a warning',
    (hash) => {
      const { result, notes } = user(fbUser(1, 'eve', hash));
      expect('user' in result && result.user.hasUsablePassword).toBe(false);
      expect('user' in result && result.user.record.passwordHash).toBe('');
      expect(notes.warnings.join('\n')).toMatch(/eve: .*administrator sets a password/);
    },
  );

  it.each([
    [fbUser(1, '', BCRYPT), /username is empty/],
    [fbUser(1, ' bob', BCRYPT), /spaces/],
    [fbUser(1, 'a/b', BCRYPT), /characters/],
    [fbUser(0, 'zero', BCRYPT), /no valid id/],
    [fbUser(1, 'nul', BCRYPT, { scope: '/a\0b' }), /NUL/],
    ['not an object', /not a JSON object/],
  ])('are skipped with a reason when Cabinet cannot hold them (%#)', (json, reason) => {
    const { result } = user(json);
    expect('skipped' in result && result.skipped.reason).toMatch(reason);
  });

  it('keep a rule whose expression does not compile, and warn that it fails closed', () => {
    const { result, notes } = user(
      fbUser(1, 'bob', BCRYPT, {
        rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(?P<x>a)' } }],
      }),
    );
    expect('user' in result && result.user.record.rules).toHaveLength(1);
    expect(notes.warnings.join('\n')).toMatch(/"\(\?P<x>a\)" does not compile.*blocks everything/);
  });
});

describe('filebrowser settings', () => {
  it('replace the global settings, default user settings, rules, branding, hooks and tus', () => {
    const notes = new ImportNotes();
    const settings = mapSettings(
      fbSettings({
        signup: true,
        createUserDir: true,
        userHomeBasePath: 'homes/',
        minimumPasswordLength: 8,
        hideLoginButton: false,
        defaults: {
          ...(fbSettings().defaults as object),
          locale: 'fr',
          viewMode: 'list',
          perm: { download: true, share: true, create: true },
        },
        rules: [{ regex: false, allow: false, path: '/private', regexp: null }],
        branding: { name: 'Files', theme: 'dark', files: '/branding', disableExternal: true },
        tus: { chunkSize: 1024, retryCount: 2 },
        commands: { after_upload: ['  echo hi  ', ''], on_login: ['x'] },
        shell: ['/bin/sh', '-c', ''],
        fileMode: 420,
      }),
      defaultSettings(),
      notes,
    );
    expect(settings).toMatchObject({
      signup: true,
      createUserDir: true,
      userHomeBasePath: '/homes',
      minimumPasswordLength: 8,
      hideLoginButton: false,
      defaults: {
        locale: 'fr',
        viewMode: 'list',
        perm: { admin: false, execute: false, create: true, share: true, download: true },
      },
      rules: [{ regex: false, allow: false, path: '/private', regexp: null }],
      branding: { name: 'Files', theme: 'dark', files: '/branding', disableExternal: true },
      tus: { chunkSize: 1024, retryCount: 2 },
      shell: ['/bin/sh', '-c'],
      authMethod: 'json',
    });
    expect(settings.commands.after_upload).toEqual(['echo hi']);
    expect(Object.keys(settings.commands)).not.toContain('on_login');
    const dropped = notes.noEquivalent.map((d) => d.what);
    expect(dropped).toEqual(expect.arrayContaining(['setting "key"', 'setting "fileMode"']));
    expect(dropped).toContain('event hook "on_login"');
    expect(notes.warnings.join('\n')).toMatch(/--enable-exec/);
  });

  it('keep what filebrowser does not say, and map an unknown theme to the light one', () => {
    const notes = new ImportNotes();
    const current = { ...defaultSettings(), signup: true };
    const settings = mapSettings({ branding: { theme: 'blue' } }, current, notes);
    expect(settings.signup).toBe(true);
    expect(settings.branding.theme).toBe('');
    expect(notes.mapped.join('\n')).toMatch(/theme "blue"/);
    expect(mapSettings(undefined, current, notes)).toBe(current);
  });
});

describe('filebrowser auth methods', () => {
  it.each([
    ['json', { recaptcha: null }, { authMethod: 'json' }],
    [
      'json',
      { recaptcha: { host: 'https://www.recaptcha.net', key: 'k', secret: 's' } },
      {
        authMethod: 'json',
        recaptchaHost: 'https://www.recaptcha.net',
        recaptchaKey: 'k',
        recaptchaSecret: 's',
      },
    ],
    ['proxy', { header: 'X-Remote-User' }, { authMethod: 'proxy', authHeader: 'X-Remote-User' }],
    ['noauth', {}, { authMethod: 'noauth' }],
    ['hook', { command: '/ldap.sh arg' }, { authMethod: 'json' }],
    ['oidc', { clientID: 'x' }, { authMethod: 'json' }],
    ['', undefined, { authMethod: 'json' }],
  ])('%s %j becomes %j', (method, auther, config) => {
    expect(mapAuth(method, auther, '', new ImportNotes()).config).toEqual(config);
  });

  it('keep a hook only switched off, with a warning', () => {
    const notes = new ImportNotes();
    const auth = mapAuth('hook', { command: '/ldap.sh arg' }, '', notes);
    expect(auth.disabledHook).toEqual({ command: '/ldap.sh arg' });
    expect(notes.warnings.join('\n')).toMatch(/hook .*"\/ldap\.sh arg".*switched off/);
    expect(mapAuth('oidc', {}, '', notes).disabledHook).toBeUndefined();
    expect(notes.noEquivalent.map((d) => d.what)).toContain('auth method "oidc"');
  });
});

describe('filebrowser server settings', () => {
  it('become Cabinet configuration', () => {
    const notes = new ImportNotes();
    const config = mapServer(
      fbServer({
        root: '/srv',
        baseURL: '/files',
        port: '8081',
        address: '',
        tokenExpirationTime: '1h30m',
        enableThumbnails: false,
        resizePreview: true,
        enableExec: true,
        typeDetectionByHeader: false,
        socket: '/run/fb.sock',
        tlsCert: '/c.pem',
        log: '/var/log/fb.log',
      }),
      noOptions(),
      notes,
    );
    expect(config).toEqual({
      root: '/srv',
      baseURL: '/files',
      address: '0.0.0.0',
      port: 8081,
      tokenExpiration: '90m',
      enableThumbs: false,
      resizePreview: true,
      enableExec: true,
    });
    const dropped = notes.noEquivalent.map((d) => d.what).join('\n');
    for (const what of ['socket', 'cert', 'log', 'type detection']) expect(dropped).toContain(what);
    expect(notes.warnings.join('\n')).toMatch(/command execution is on/);
  });

  it('take the config file and FB_* variables over the database, as filebrowser does', () => {
    const notes = new ImportNotes();
    const options = filebrowserOptions(
      parseConfigFile('{"root": "/data", "baseURL": "/fb", "port": 80}', '.filebrowser.json'),
      '.filebrowser.json',
      { FB_PORT: '9000', FB_DISABLE_THUMBNAILS: 'true', HOME: '/root' },
    );
    const config = mapServer(fbServer({ root: '/srv', port: '8080' }), options, notes);
    expect(config).toMatchObject({
      root: '/data',
      baseURL: '/fb',
      port: 9000,
      enableThumbs: false,
    });
    expect(notes.mapped.join('\n')).toMatch(/read from .*FB_PORT/);
  });

  it('refuse nothing silently: a bad port or duration is a warning', () => {
    const notes = new ImportNotes();
    const config = mapServer(
      fbServer({ port: 'http', tokenExpirationTime: 'soon' }),
      noOptions(),
      notes,
    );
    expect(config.port).toBeUndefined();
    expect(config.tokenExpiration).toBeUndefined();
    expect(notes.warnings).toHaveLength(3);
  });
});

describe('filebrowser share links', () => {
  const now = Date.UTC(2026, 8, 1);
  it('keep hash, path, owner, expiry and the bcrypt password hash', () => {
    const link = fbLink('AbC-d_12', '/docs/', 3, {
      expire: now / 1000 + 60,
      password_hash: BCRYPT,
      token: 'stored-token',
    });
    expect(mapShare(link, 'share x', now)).toEqual({
      share: {
        hash: 'AbC-d_12',
        path: '/docs/',
        sourceUserId: 3,
        expire: now / 1000 + 60,
        passwordHash: BCRYPT,
      },
    });
  });

  it.each([
    [fbLink('gone', '/a', 1, { expire: now / 1000 - 1 }), /expired/],
    [fbLink('a/b', '/a', 1), /URL-safe/],
    [fbLink('nopath', '', 1), /no usable path/],
    [{ hash: 'x', path: '/a' }, /no owner/],
    [fbLink('weird', '/a', 1, { password_hash: 'plain' }), /password hash/],
  ])('are skipped with a reason (%#)', (json, reason) => {
    const result = mapShare(json, 'share', now);
    expect('skipped' in result && result.skipped.reason).toMatch(reason);
  });
});

describe('filebrowser config files', () => {
  it.each([
    ['.filebrowser.json', '{"port": 80, "baseURL": "", "root": "/srv", "noauth": false}'],
    [
      '.filebrowser.yaml',
      'port: 80\nbaseURL: ""\n# comment\nroot: "/srv" # the files\nnoauth: false\n',
    ],
    ['.filebrowser.toml', 'port = 80\nbaseURL = ""\nroot = \'/srv\'\nnoauth = false\n'],
  ])('%s is read as flat options', (file, content) => {
    expect(Object.fromEntries(parseConfigFile(content, file))).toEqual({
      port: 80,
      baseURL: '',
      root: '/srv',
      noauth: false,
    });
  });

  it.each([
    ['.filebrowser.json', '{"server": {"port": 80}}', /only flat options/],
    ['.filebrowser.json', '{port: 80}', /not JSON/],
    ['.filebrowser.yaml', 'server:\n  port: 80\n', /line 2: only flat/],
    ['.filebrowser.toml', '[server]\nport = 80\n', /line 1: only flat/],
    ['.filebrowser.ini', 'port=80', /ends in \.json, \.yaml, \.yml or \.toml/],
  ])('%s %j is refused in one line', (file, content, message) => {
    expect(() => parseConfigFile(content, file)).toThrow(message);
  });
});

describe('Go durations', () => {
  it.each([
    ['2h', 7200, '2h'],
    ['2h0m0s', 7200, '2h'],
    ['1h30m', 5400, '90m'],
    ['90s', 90, '90s'],
    ['1.5h', 5400, '90m'],
    ['48h', 172800, '2d'],
    ['500ms', 0.5, '0.5s'],
  ])('%s is %d seconds, written %s', (raw, seconds, written) => {
    expect(parseGoDuration(raw)).toBe(seconds);
    expect(formatDuration(seconds)).toBe(written);
  });

  it.each(['', 'soon', '2 h', '-1h', '1d', 'h'])('%j is not one', (raw) => {
    expect(parseGoDuration(raw)).toBeUndefined();
  });
});
