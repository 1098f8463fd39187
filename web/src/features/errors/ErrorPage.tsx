import { Ban, CircleAlert, MapPinOff } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import './error-page.css';

const PAGES = {
  403: { icon: Ban, title: 'errors.forbiddenTitle', message: 'errors.forbidden' },
  404: { icon: MapPinOff, title: 'errors.notFoundTitle', message: 'errors.notFound' },
  500: { icon: CircleAlert, title: 'errors.internalTitle', message: 'errors.internal' },
} as const;

/** The forbidden, not-found and internal error pages, also shown in place of a page whose data failed. */
export function ErrorPage({ code }: { code: 403 | 404 | 500 }) {
  const { t } = useTranslation();
  const page = PAGES[code];
  const Icon = page.icon;
  return (
    <section className="error-page" aria-labelledby="error-page-title">
      <Icon className="error-page__icon" size={48} aria-hidden="true" />
      <h1 id="error-page-title" className="error-page__title">
        {t(page.message)}
      </h1>
      <p className="error-page__code">
        {code} · {t(page.title)}
      </p>
      <Link className="button button--secondary" to="/files/">
        {t('errors.goHome')}
      </Link>
    </section>
  );
}
