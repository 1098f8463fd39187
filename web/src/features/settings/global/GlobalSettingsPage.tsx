import { useState } from 'react';
import type { Settings } from '@cabinet/protocol';
import { errorPageCode } from '../../../api/api-error.ts';
import { useSettingsQuery } from '../../../api/settings/settings-query.ts';
import { useSettingsUpdateMutation } from '../../../api/settings/settings-update-mutation.ts';
import { pageConfig } from '../../../config/page-config.ts';
import { publishBranding } from '../../../config/branding.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { ErrorPage } from '../../errors/index.ts';
import { SitesSettingsCard } from '../../sites/on-demand.ts';
import { TwoFactorPolicyCard } from '../../two-factor/on-demand.ts';
import { placeError, type PlacedError } from '../form-errors.ts';
import { hasInvalidRule } from '../rules/rule-rows.ts';
import { CommandRunnerCard } from './CommandRunnerCard.tsx';
import { DefaultsCard } from './DefaultsCard.tsx';
import { GeneralCard } from './GeneralCard.tsx';

/** What each card hands to Save: the whole settings object with its own changes applied. */
export interface SettingsCardProps {
  settings: Settings;
  onSave: (next: Settings) => void;
  isSaving: boolean;
  /** The last refusal of this card's save. */
  error?: PlacedError;
}

type CardName = 'general' | 'defaults' | 'commands';

/**
 * /settings/global (administrators): three cards, each saving
 * the whole settings object with its Update button. The command runner card shows only when the
 * server runs commands.
 */
export function GlobalSettingsPage() {
  const { t } = useTranslation();
  const settings = useSettingsQuery();
  const save = useSettingsUpdateMutation();
  const [failed, setFailed] = useState<{ card: CardName; error: PlacedError } | undefined>();

  if (settings.isError) return <ErrorPage code={errorPageCode(settings.error)} />;

  const saver = (card: CardName) => (next: Settings) => {
    if (hasInvalidRule(next.rules)) {
      setFailed({ card, error: { field: 'rules', message: t('settings.fixRules') } });
      return;
    }
    setFailed(undefined);
    save.mutate(next, {
      onSuccess: () => {
        // The name and theme apply at once, here and in the other open tabs.
        publishBranding(next.branding);
        notifySuccess(t('settings.settingsUpdated'));
      },
      onError: (error) => setFailed({ card, error: placeError(error, t) }),
    });
  };
  const cardProps = (card: CardName) => ({
    settings: settings.data!,
    onSave: saver(card),
    isSaving: save.isPending,
    error: failed?.card === card ? failed.error : undefined,
  });

  return (
    <section className="settings__screen" aria-labelledby="global-settings-title">
      <h1 id="global-settings-title" className="settings__title">
        {t('settings.globalSettings')}
      </h1>
      {settings.data ? (
        // Cards start from what was loaded; a save reloads it, and the key starts them afresh.
        <div className="settings__screen" key={settings.dataUpdatedAt}>
          <GeneralCard {...cardProps('general')} />
          <DefaultsCard {...cardProps('defaults')} />
          {pageConfig.EnableExec && <CommandRunnerCard {...cardProps('commands')} />}
          <SitesSettingsCard />
          {pageConfig.AuthMethod === 'json' && <TwoFactorPolicyCard />}
        </div>
      ) : (
        <p className="settings__help" role="status">
          {t('files.loading')}
        </p>
      )}
    </section>
  );
}
