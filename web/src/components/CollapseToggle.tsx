import { ChevronDown, ChevronUp } from 'lucide-react';

/**
 * The show/hide button of a corner panel's list (the upload and Jobs panels): its label names
 * what it shows, and it tells assistive technology which list it controls and whether it is open.
 */
export function CollapseToggle({
  label,
  controls,
  collapsed,
  onToggle,
}: {
  label: string;
  controls: string;
  collapsed: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className="icon-button icon-button--small"
      aria-label={label}
      title={label}
      aria-expanded={!collapsed}
      aria-controls={controls}
      onClick={onToggle}
    >
      {collapsed ? (
        <ChevronUp size={18} aria-hidden="true" />
      ) : (
        <ChevronDown size={18} aria-hidden="true" />
      )}
    </button>
  );
}
