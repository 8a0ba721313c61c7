// Display only: how the engine's numbers are written on the page.
// One formatter for every number (toLocaleString makes a new one each call,
// which, a few thousand times over as the sections are set up, adds up).
const grouped = new Intl.NumberFormat('en-US');
export function thousands(v) {
  return grouped.format(Number(v));
}

// The word for a count: plural(1, 'hash', 'hashes') is 'hash'; the plural
// is the word with an s unless given.
export function plural(n, one, many = one + 's') {
  return Number(n) === 1 ? one : many;
}

// A count with its word: count(1, 'word') is '1 word', count(2000, 'word')
// '2,000 words'.
export function count(n, one, many) {
  return `${thousands(n)} ${plural(n, one, many)}`;
}

// A rate (0.0073) as a percent with fixed decimals ("0.73%").
export function percent(rate, decimals = 2) {
  return (rate * 100).toFixed(decimals) + '%';
}

// A rate as percent() writes it, unless that would read 0.00% for a rate
// above 0: then to two significant digits ("0.0042%"), so a small rate
// never looks like none beside a measured one.
export function percentFine(rate) {
  return rate > 0 && rate < 0.00005 ? percentSig(rate, 2) : percent(rate);
}

// A rate to a few significant digits, in scientific form when tiny.
export function percentSig(rate, digits = 3) {
  const pct = rate * 100;
  if (pct === 0) return '0%';
  if (Math.abs(pct) < 1e-4) return pct.toExponential(digits - 1) + '%';
  return pct.toPrecision(digits) + '%';
}

// Bytes in human units (powers of 1,024).
export function bytes(b) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = Number(b), u = 0;
  while (v >= 1024 && u < units.length - 1) v /= 1024, u++;
  return u === 0 ? count(v, 'byte') : `${v.toPrecision(3)} ${units[u]}`;
}

// One lookup in x (x = 1 / rate). Under 10 the rounding to a whole number
// would change the rate (92% is not 1 in 1), so x keeps two digits and is
// marked "about" when they round it.
export function oneIn(x) {
  if (x === null || !isFinite(x)) return 'never';
  if (x >= 10) return '1 in ' + thousands(Math.round(x));
  const shown = +x.toPrecision(2);
  return (shown === x ? '' : 'about ') + '1 in ' + shown;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

export function list(names) {
  if (names.length <= 1) return names.join('');
  return names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
}
