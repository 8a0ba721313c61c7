// Showing the engine's refusals beside the input they concern, and clearing
// them. Fields are named as in the engine's requests (m, k, n, p, ...).
export function clearErrors(form) {
  for (const el of form.querySelectorAll('.error')) el.textContent = '';
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

// Shows report.error beside the input; returns true when there was one.
export function showError(form, prefix, report, fallbackField) {
  if (!report.error) return false;
  const field = report.error.field || fallbackField;
  const box = form.querySelector(`#${prefix}-${field}-error`) || form.querySelector(`#${prefix}-${fallbackField}-error`);
  if (box) box.textContent = report.error.message;
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
