/** Pure helpers of the soak bench (bench/soak/run.ts). */

/** "10m", "60m", "1h", "90s", "600" (seconds) → milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: "${text}" (say 10m, 60m, 1h or 90s)`);
  const unit = match[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'h' ? 3_600_000 : 60_000;
  return Number(match[1]) * factor;
}

export function mean(values: number[]): number {
  return values.length === 0 ? NaN : values.reduce((s, v) => s + v, 0) / values.length;
}

/** The first, middle and last thirds (the first and last the same size; the middle takes the rest). */
export function thirds<T>(values: T[]): [T[], T[], T[]] {
  const size = Math.floor(values.length / 3);
  return [values.slice(0, size), values.slice(size, values.length - size), values.slice(values.length - size)];
}

/** From `from` to `to`, in per cent of `from`. */
export function growth(from: number, to: number): number {
  return ((to - from) / from) * 100;
}

/** The p-th percentile of sorted values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
