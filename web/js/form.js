// Showing the engine's refusals beside the input they concern, and clearing
// them. Fields are named as in the engine's requests (m, k, n, p, ...); the
// input for field f in a section with prefix x is #x-f, and a message names
// it by the text of its label ("Planned n", not "n0").
export function clearErrors(form) {
  for (const el of form.querySelectorAll('.error:not(.url-error)')) el.textContent = '';
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
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

// A whole number within the drawing's own bounds; the message names the
// field, the value and the range, as the engine's refusals do.
export function checkRange(form, prefix, field, lo, hi) {
  const input = form.querySelector(`#${prefix}-${field}`);
  const text = input.value.trim().replace(/,/g, '');
  if (/^\d+$/.test(text) && +text >= lo && +text <= hi) return true;
  form.querySelector(`#${prefix}-${field}-error`).textContent =
    `${label(form, prefix, field)}: '${input.value.trim()}' is not allowed here; allowed: a whole number from ${lo} to ${hi}`;
  input.setAttribute('aria-invalid', 'true');
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
