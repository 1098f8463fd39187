import { useTranslation } from '../../i18n/use-translation.ts';
import { LOCALE_NAMES } from '../../i18n/locale-names.ts';
import { LOCALES } from '../../i18n/locales.ts';

/**
 * The language select: "" for the browser's language, then every locale Cabinet offers,
 * each by its own name (missing catalogues fall back to English).
 */
export function LanguageSelect({
  value,
  onChange,
}: {
  value: string;
  onChange: (locale: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span className="field__label">{t('settings.language')}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('settings.browserLanguage')}</option>
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
