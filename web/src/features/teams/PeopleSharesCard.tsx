import { usePeopleSharesQuery } from '../../api/teams/people-shares-query.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { PeopleAccessList } from './PeopleAccessList.tsx';
import './teams.css';

/**
 * The Shares screen's shares with people: each item with who has access to it, changed or
 * revoked in place. A server without them (404) shows nothing.
 */
export function PeopleSharesCard() {
  const { t } = useTranslation();
  const shares = usePeopleSharesQuery();
  if (shares.isError) return null;
  return (
    <section className="card" aria-labelledby="people-shares-title">
      <h2 id="people-shares-title" className="card__title">
        {t('teams.peopleShares')}
      </h2>
      {shares.isPending ? (
        <p className="grant-list__empty">{t('share.loading')}</p>
      ) : (
        <PeopleAccessList shares={shares.data} showPath />
      )}
    </section>
  );
}
