import { pageConfig } from '../config/page-config.ts';

/**
 * The product mark (decorative: the name next to it carries the meaning), or the branding
 * folder's img/logo.svg when the server says it has one.
 */
export function Logo({ size = 28 }: { size?: number }) {
  if (pageConfig.CustomLogo) {
    return (
      <img
        className="logo"
        src={`${pageConfig.StaticURL}/img/logo.svg`}
        width={size}
        height={size}
        alt=""
      />
    );
  }
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="3" y="5" width="26" height="22" rx="4" fill="var(--accent)" />
      <rect x="3" y="5" width="11" height="5" rx="2" fill="var(--accent-strong)" />
      <rect x="7" y="14" width="18" height="2.5" rx="1.25" fill="var(--on-accent)" />
      <rect x="7" y="19.5" width="12" height="2.5" rx="1.25" fill="var(--on-accent)" />
    </svg>
  );
}
