import './progress-bar.css';

/** A thin determinate bar with the progressbar role, named for what it measures. */
export function ProgressBar({ label, percent }: { label: string; percent: number }) {
  return (
    <div
      className="upload-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div className="upload-progress__bar" style={{ transform: `scaleX(${percent / 100})` }} />
    </div>
  );
}
