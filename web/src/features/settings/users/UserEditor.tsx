import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/api-error.ts';
import { useUserCreateMutation } from '../../../api/users/user-create-mutation.ts';
import { useUserDeleteMutation } from '../../../api/users/user-delete-mutation.ts';
import { useUserUpdateMutation } from '../../../api/users/user-update-mutation.ts';
import { canLogout } from '../../../config/page-config.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { placeError, type ErrorField, type PlacedError } from '../form-errors.ts';
import { hasInvalidRule } from '../rules/rule-rows.ts';
import { TextField } from '../TextField.tsx';
import { DeleteUserDialog } from './DeleteUserDialog.tsx';
import { toUserData, type UserFormValue } from './user-form-value.ts';
import { UserFields } from './UserFields.tsx';
import { useRevealError } from './use-reveal-error.ts';

/** With the json method the server wants the acting admin's own password for these changes. */
const needsCurrentPassword = canLogout;

interface UserEditorProps {
  /** The user's id; undefined creates a new user. */
  id: number | undefined;
  initial: UserFormValue;
}

/**
 * The form of the user screen: Save creates or replaces the whole user, Delete asks first. The
 * server's refusals land on the field they concern, in words for people, brought into view with
 * the field focused; saving raises no error notification besides (one message, where it applies).
 */
export function UserEditor({ id, initial }: UserEditorProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<PlacedError | undefined>();
  const [isConfirming, setConfirming] = useState(false);
  const create = useUserCreateMutation();
  const update = useUserUpdateMutation(undefined, true);
  const remove = useUserDeleteMutation();
  const isNew = id === undefined;
  const isBusy = create.isPending || update.isPending || remove.isPending;
  const fieldErrors: Partial<Record<ErrorField, string>> = error?.field
    ? { [error.field]: error.message }
    : {};
  const confirmation = needsCurrentPassword ? { currentPassword } : {};
  const fail = (failure: unknown) => setError(placeError(failure, t));
  const formRef = useRef<HTMLFormElement>(null);
  // Not while the delete dialog is open: its own password field shows its refusal and keeps focus.
  useRevealError(formRef, isConfirming ? undefined : error);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    // The quota field already says what is wrong with its text.
    if (value.quota === null) return;
    if (hasInvalidRule(value.rules)) {
      setError({ field: 'rules', message: t('settings.fixRules') });
      return;
    }
    setError(undefined);
    const data = toUserData(value);
    if (isNew) {
      create.mutate(
        { data, ...confirmation },
        {
          onSuccess: (location) => {
            notifySuccess(t('settings.userCreated'));
            void navigate(location);
          },
          onError: fail,
        },
      );
      return;
    }
    update.mutate(
      { id, which: ['all'], data, ...confirmation },
      {
        onSuccess: () => {
          setValue((old) => ({ ...old, password: '' }));
          setCurrentPassword('');
          notifySuccess(t('settings.userUpdated'));
        },
        onError: fail,
      },
    );
  };

  const handleDelete = () => {
    if (isNew || isBusy) return;
    if (needsCurrentPassword && !currentPassword) {
      // Said before asking the server: an empty field is "required", never "incorrect".
      setError({ field: 'currentPassword', message: t('firstWeek.currentPasswordRequired') });
      return;
    }
    remove.mutate(
      { id, ...confirmation },
      {
        onSuccess: () => {
          setConfirming(false);
          notifySuccess(t('settings.userDeleted'));
          void navigate('/settings/users');
        },
        onError: (failure) => {
          const placed = placeError(failure, t);
          if (placed.field === 'currentPassword') {
            setError(placed); // Shown next to the dialog's own password field.
            return;
          }
          setConfirming(false);
          // An administrator is refused a deletion (403, no reason on the wire) only for the last one.
          if (failure instanceof ApiError && failure.kind === 'forbidden') {
            setError({ field: 'perm', message: t('settings.errLastAdminDelete') });
          } else fail(failure);
        },
      },
    );
  };

  return (
    <>
      <form
        ref={formRef}
        className="card"
        onSubmit={handleSubmit}
        aria-labelledby="user-edit-title"
        noValidate
      >
        <UserFields
          mode="user"
          isNew={isNew}
          value={value}
          onChange={(patch) => setValue((old) => ({ ...old, ...patch }))}
          errors={fieldErrors}
        />
        {needsCurrentPassword && (
          <TextField
            label={t('settings.yourPassword')}
            hint={t('settings.yourPasswordHelp')}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={setCurrentPassword}
            error={fieldErrors.currentPassword}
          />
        )}
        {error && !error.field && (
          <p className="field__error" role="alert">
            {error.message}
          </p>
        )}
        <div className="card__actions">
          {!isNew && (
            <button
              type="button"
              className="button button--danger"
              disabled={isBusy}
              onClick={() => {
                if (error?.field === 'currentPassword') setError(undefined);
                setConfirming(true);
              }}
            >
              {t('settings.delete')}
            </button>
          )}
          <button type="submit" className="button" disabled={isBusy}>
            {t('settings.save')}
          </button>
        </div>
      </form>
      {isConfirming && (
        <DeleteUserDialog
          isPending={remove.isPending}
          onConfirm={handleDelete}
          onClose={() => {
            setConfirming(false);
            if (error?.field === 'currentPassword') setError(undefined);
          }}
          password={
            needsCurrentPassword
              ? {
                  value: currentPassword,
                  onChange: setCurrentPassword,
                  error: fieldErrors.currentPassword,
                }
              : undefined
          }
        />
      )}
    </>
  );
}
