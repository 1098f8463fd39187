/** Small statistics and formatting helpers for the benchmark report. */
import { MIB } from './layout.ts';

/** Nearest-rank percentile of `values` (p in 0–100); NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** Throughput in MiB/s (reported as "MB/s", binary megabytes, like the brief's MiB sizes). */
export function mbPerSecond(bytes: number, seconds: number): number {
  return seconds > 0 ? bytes / MIB / seconds : 0;
}

/** Largest value, or NaN for an empty list. */
export function best(values: readonly number[]): number {
  return values.length ? Math.max(...values) : Number.NaN;
}

/** Number with a fixed count of decimals, or "—" when not a finite number. */
export function fmt(value: number | undefined, digits = 1): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** Milliseconds since an arbitrary origin, high resolution. */
export function now(): number {
  return performance.now();
}
