import { useNavigate } from 'react-router';
import { logOut } from '../../auth/session.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { TwoFactorCard } from './TwoFactorCard.tsx';

/**
 * /two-factor: where a session lands when the administrator requires two-factor sign-in and the
 * user has none; the server refuses everything else to that session until enrolment is done.
 */
export function TwoFactorEnrolPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <main className="two-factor-enrol">
      <h1>{t('twoFactor.enrolTitle')}</h1>
      <p className="two-factor__help">{t('twoFactor.required')}</p>
      <TwoFactorCard onEnabled={() => void navigate('/files/', { replace: true })} />
      <button
        type="button"
        className="link-button"
        onClick={() => void logOut().then(() => navigate('/login', { replace: true }))}
      >
        {t('twoFactor.signOut')}
      </button>
    </main>
  );
}
