// Every section keeps its inputs in the URL, so a reload or a shared link
// restores it. Keys are prefixed by section (st_, ms_, tu_, sc_, wk_, rm_,
// ov_, ck_, cb_, gr_, bp_, sy_, wh_, dr_).
const params = new URLSearchParams(location.search);

export function get(key, fallback) {
  return params.has(key) ? params.get(key) : fallback;
}

export function set(values) {
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  // Only a change is written: each section saves its inputs when it is set
  // up, and the browser's history call takes milliseconds even when the
  // address stays the same.
  if ((query ? '?' + query : '') === location.search) return;
  history.replaceState(null, '', (query ? '?' + query : location.pathname) + location.hash);
}

// A URL value from a fixed set, checked like a choice on the page: one
// outside the set falls back to `fallback`, and the returned `refused` says
// so (with the allowed values) for the section to show beside its input.
export function choice(key, allowed, fallback, label) {
  const v = get(key, fallback);
  if (allowed.includes(v)) return { value: v, refused: '' };
  return { value: fallback, refused: `${label}: '${shown(v)}' in the link is not allowed; allowed: ${allowed.join(', ')}. Using ${fallback}.` };
}

// A link's value as a refusal quotes it: cut after 40 characters.
export function shown(v) {
  return v.length > 40 ? v.slice(0, 40) + '…' : v;
}

// Shows a URL value's refusal in `box` (a .url-error paragraph, which the
// section's own error clearing leaves alone) until the user next changes
// the input.
export function showRefused(box, refused, input) {
  box.textContent = refused;
  if (refused && input) input.addEventListener('change', () => { box.textContent = ''; }, { once: true });
}
