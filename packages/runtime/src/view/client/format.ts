/** Number formats of the report. @module */

/** `0.533` → `53.3%`; `null` → `n/a`. */
export const percent = (rate: number | null): string =>
  rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;

/** ms → `12.3 s`; `null` → empty. */
export const seconds = (ms: number | null): string => (ms === null ? '' : `${(ms / 1000).toFixed(1)} s`);

/** USD with four decimals under $1; `null` → `n/a`. */
export const usd = (cost: number | null): string =>
  cost === null ? 'n/a' : cost < 1 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;

/** `12345` → `12,345`; `null` → empty. */
export const count = (n: number | null): string => (n === null ? '' : n.toLocaleString('en-US'));

/** `{success: 1, total: 2}` → `1/2`. */
export const ratio = (r: { success: number; total: number } | null): string =>
  r === null ? '' : `${r.success}/${r.total}`;
