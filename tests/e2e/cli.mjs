// The CLI, as the browser tests' reference: a number the page shows must be
// the number `bloomlab ... --json` gives for the same input.
import { execFileSync } from 'node:child_process';

// BLOOMLAB_CLI points the tests at another build's CLI; else that of the
// build the config serves (BLOOMLAB_BUILD, default build/release).
export const bloomlab = process.env.BLOOMLAB_CLI || `${process.env.BLOOMLAB_BUILD || 'build/release'}/src/bloomlab`;

export function cli(args, input) {
  return JSON.parse(execFileSync(bloomlab, [...args, '--json'], { input, encoding: 'utf8' }));
}

// The page's display rounding, to compare the CLI's fractions with its text.
export function pct(rate, decimals = 2) {
  return (rate * 100).toFixed(decimals) + '%';
}

// As the page writes a rate that percent() would show as 0.00% although it
// is above 0: two significant digits (format.js percentFine).
export function pctFine(rate) {
  if (!(rate > 0 && rate < 0.00005)) return pct(rate);
  const v = rate * 100;
  return (v < 1e-4 ? v.toExponential(1) : v.toPrecision(2)) + '%';
}

export function thousands(v) {
  return Number(v).toLocaleString('en-US');
}
