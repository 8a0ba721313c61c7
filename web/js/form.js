import { limits } from './engine.js';
import { echoAll, understood } from './echo.js';

// Showing the engine's refusals beside the input they concern, and clearing
// them. Fields are named as in the engine's requests (m, k, n, p, ...); the
// input for field f in a section with prefix x is #x-f, and a message names
// it by the text of its label ("Planned n", not "n0"). Every view clears its
// form before it computes, so this is also where each number input's echo
// (echo.js) is brought up to date with the text the view is about to send.
export function clearErrors(form) {
  for (const el of form.querySelectorAll('.error:not(.url-error)')) el.textContent = '';
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  echoAll(form);
}

// The name the reader sees for a field: its label's text.
export function label(form, prefix, field) {
  const el = form.querySelector(`label[for="${prefix}-${field}"]`);
  return el ? el.textContent.trim() : field;
}

// Shows report.error beside the input; returns true when there was one.
// The engine's message starts with the field's name, which becomes its label.
export function showError(form, prefix, report, fallbackField) {
  if (!report.error) return false;
  const field = report.error.field || fallbackField;
  const box = form.querySelector(`#${prefix}-${field}-error`) || form.querySelector(`#${prefix}-${fallbackField}-error`);
  const message = report.error.message;
  if (box) {
    box.textContent = message.startsWith(`${field}: `)
      ? `${label(form, prefix, field)}: ${message.slice(field.length + 2)}` : message;
  }
  const input = form.querySelector(`#${prefix}-${field}`);
  if (input) input.setAttribute('aria-invalid', 'true');
  return true;
}

export function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// A list box's words: one a line, trimmed (spaces, tabs, a Windows line
// ending), blank lines skipped; as the command line reads a file.
export function lines(text) {
  return text.split('\n').map((l) => l.replace(/^[ \t\r\f\v]+|[ \t\r\f\v]+$/g, '')).filter((l) => l !== '');
}

// The bounds of a drawing's input, as the engine defines them (the limits
// operation's ranges, by "prefix.field"): [lo, hi].
export function drawingRange(prefix, field) {
  const range = limits().ranges[`${prefix}.${field}`];
  if (!range) throw new Error(`the engine defines no range for ${prefix}.${field}`);
  return range;
}

// An input's default where the engine defines it (the limits operation's
// defaults, by "prefix.field"), as the input's text.
export function engineDefault(prefix, field) {
  const value = limits().defaults[`${prefix}.${field}`];
  if (value === undefined) throw new Error(`the engine defines no default for ${prefix}.${field}`);
  return String(value);
}

// A number within the drawing's own bounds (drawingRange), as the engine
// reads the input (echo.js: 64KiB, 1e2, 10k); a value it refuses is refused
// beside the input in its words, which name the field, the value and the
// range.
export function checkRange(form, prefix, field) {
  const input = form.querySelector(`#${prefix}-${field}`);
  const r = understood(input, drawingRange(prefix, field));
  if (!r.error) return true;
  showError(form, prefix, { error: { ...r.error, field } }, field);
  return false;
}

// At most `max` words: past it, says so beside the box (the text is kept)
// and returns only the first `max`.
export function capped(form, prefix, field, words, max) {
  if (words.length <= max) return words;
  form.querySelector(`#${prefix}-${field}-error`).textContent =
    `${label(form, prefix, field)}: ${words.length} words; the limit is ${max}, so only the first ${max} are used. Your text is kept as it is.`;
  return words.slice(0, max);
}

// A whole number the input's label promises (a power of two, a prime): one
// that is not is refused beside the input with the nearest that are, as
// `nearest(v)` lists them. Text the engine cannot read as a number is left
// to its own refusal; returns false only for a refused number.
export function checkKind(form, prefix, field, what, is, nearest) {
  const input = form.querySelector(`#${prefix}-${field}`);
  const r = understood(input);
  if (r.error || !Number.isSafeInteger(r.value) || is(r.value)) return true;
  const near = nearest(r.value).map((v) => Number(v).toLocaleString('en-US'));
  form.querySelector(`#${prefix}-${field}-error`).textContent =
    `${label(form, prefix, field)}: '${input.value.trim()}' is not ${what}; the nearest ${near.length === 1 ? 'is' : 'are'} ${near.join(' and ')}`;
  input.setAttribute('aria-invalid', 'true');
  return false;
}

// Powers of two: is, and the nearest (the one below, from 1, and the one
// above). Exact for every safe integer.
function powerBelow(v) {
  let p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}
export function isPowerOfTwo(v) {
  return v >= 1 && powerBelow(v) === v;
}
export function nearestPowersOfTwo(v) {
  return v < 1 ? [1] : [powerBelow(v), powerBelow(v) * 2];
}

// Primes by trial division (6j +- 1), and the nearest: the one below, where
// there is one, and the one above.
export function isPrime(v) {
  if (v < 2) return false;
  if (v % 2 === 0 || v % 3 === 0) return v <= 3;
  for (let d = 5; d * d <= v; d += 6) if (v % d === 0 || v % (d + 2) === 0) return false;
  return true;
}
export function nearestPrimes(v) {
  let below = v - 1, above = v + 1;
  while (below >= 2 && !isPrime(below)) below--;
  while (!isPrime(above)) above++;
  return below >= 2 ? [below, above] : [above];
}
