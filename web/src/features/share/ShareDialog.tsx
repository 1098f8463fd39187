import { LIMITS, SHARE_UNITS, type ShareUnit } from '@cabinet/protocol';
import { useId, useState } from 'react';
import { useShareCreateMutation } from '../../api/shares/share-create-mutation.ts';
import { useShareDeleteMutation } from '../../api/shares/share-delete-mutation.ts';
import { usePathSharesQuery } from '../../api/shares/share-queries.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { NothingToActOn } from '../../components/NothingToActOn.tsx';
import { useDialogTargets } from '../operations/on-demand.ts';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import { ShareLinkItem } from './ShareLinkItem.tsx';
import { shareOrder } from './share-order.ts';
import './share.css';
import { PeopleShareSection } from '../teams/on-demand.ts';

/**
 * Share: the item's links, permanent first, then by expiry; a new link
 * for a number of seconds to days (empty blocks it), with an optional password and download
 * limit; a permanent link only while none exists.
 */
export function ShareDialog({ dialog, onClose }: { dialog: OpenDialog; onClose: () => void }) {
  const { t } = useTranslation();
  const targets = useDialogTargets(dialog);
  if (targets.length !== 1) return <NothingToActOn title={t('share.title')} onClose={onClose} />;
  const [target] = targets;
  return (
    <ShareForm path={target!.path} name={target!.name} isDir={target!.isDir} onClose={onClose} />
  );
}

function ShareForm({
  path,
  name,
  isDir,
  onClose,
}: {
  path: string;
  name: string;
  isDir: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const links = usePathSharesQuery(path);
  const create = useShareCreateMutation();
  const remove = useShareDeleteMutation();
  const firstRef = useInitialFocus<HTMLInputElement>();
  const [expires, setExpires] = useState('');
  const [unit, setUnit] = useState<ShareUnit>('hours');
  const [password, setPassword] = useState('');
  const [limit, setLimit] = useState('');
  const permanentWhyId = useId();

  const ordered = shareOrder(links.data ?? []);
  const hasPermanent = ordered.some((share) => share.expire === 0 && !share.isRequest);
  const amount = Number(expires);
  const isValidAmount =
    expires.trim() !== '' &&
    Number.isInteger(amount) &&
    amount >= 0 &&
    amount <= LIMITS.shareDurationMax;
  const limitNumber = limit.trim() === '' ? 0 : Number(limit);
  const isValidLimit =
    Number.isInteger(limitNumber) && limitNumber >= 0 && limitNumber <= LIMITS.shareDurationMax;

  const submit = (permanent: boolean, request = false) => {
    if (create.isPending || !isValidLimit || (!permanent && !isValidAmount)) return;
    create.mutate(
      {
        path,
        expires: permanent ? '' : String(amount),
        unit,
        password,
        downloadLimit: limitNumber,
        request,
      },
      {
        onSuccess: () => {
          setExpires('');
          setPassword('');
          setLimit('');
        },
      },
    );
  };

  return (
    <Dialog
      title={t('share.title')}
      onClose={onClose}
      onSubmit={() => submit(false)}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('buttons.close')}
          </button>
          {isDir && (
            <button
              type="button"
              className="button button--secondary"
              disabled={create.isPending || !isValidLimit}
              // An empty duration makes a request that stays open until deleted.
              onClick={() => submit(!isValidAmount, true)}
            >
              {t('share.requestFiles')}
            </button>
          )}
          {/* Stays in its place once the item has a permanent link (disabled: one is enough),
              so no other action moves under the pointer. */}
          <button
            type="button"
            className="button button--secondary"
            disabled={create.isPending || !isValidLimit || links.isPending || hasPermanent}
            // A disabled button says why: as a tooltip, and to screen readers as its description.
            title={hasPermanent ? t('share.permanentExists') : undefined}
            aria-describedby={hasPermanent ? permanentWhyId : undefined}
            onClick={() => submit(true)}
          >
            {t('share.permanentLink')}
          </button>
          {/* Outside the button, so that it describes the button without joining its name. */}
          {hasPermanent && (
            <span id={permanentWhyId} className="visually-hidden">
              {t('share.permanentExists')}
            </span>
          )}
          <button
            type="submit"
            className="button"
            disabled={create.isPending || !isValidAmount || !isValidLimit}
          >
            {t('share.create')}
          </button>
        </>
      }
    >
      <p className="operation__subject">{name || '/'}</p>
      <PeopleShareSection path={path} />
      <h3 className="field__label">{t('teams.links')}</h3>
      {links.isPending ? (
        <p className="share-links__status">{t('share.loading')}</p>
      ) : ordered.length === 0 ? (
        <p className="share-links__status">{t('share.none')}</p>
      ) : (
        <ul className="share-links" aria-label={t('share.links')}>
          {ordered.map((share) => (
            <ShareLinkItem
              key={share.hash}
              share={share}
              isDeleting={remove.isPending && remove.variables === share.hash}
              onDelete={() => remove.mutate(share.hash)}
            />
          ))}
        </ul>
      )}
      <fieldset className="share-form">
        <legend className="field__label">{t('share.newLink')}</legend>
        <div className="share-form__duration">
          <label className="field">
            <span className="field__label">{t('share.duration')}</span>
            <input
              ref={firstRef}
              className="input"
              type="number"
              inputMode="numeric"
              min={0}
              max={LIMITS.shareDurationMax}
              step={1}
              value={expires}
              onChange={(event) => setExpires(event.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">{t('share.unit')}</span>
            <select
              className="input"
              value={unit}
              onChange={(event) => setUnit(event.target.value as ShareUnit)}
            >
              {SHARE_UNITS.map((value) => (
                <option key={value} value={value}>
                  {t(`share.units.${value}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label className="field">
          <span className="field__label">{t('share.password')}</span>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{t('share.downloadLimit')}</span>
          <input
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder={t('share.noLimit')}
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
          />
        </label>
      </fieldset>
    </Dialog>
  );
}
