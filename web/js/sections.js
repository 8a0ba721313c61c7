// Sets up one section: its view's mount(root, extra), once. A section that
// fails says so in its own place, so that the others still draw; either
// way the section is marked data-mounted. Returns what mount returned (or
// null when it failed).
export function mountSection(id, view, extra) {
  const root = document.getElementById(id);
  let result = null;
  try {
    result = view.mount(root, extra);
  } catch (err) {
    const box = document.createElement('p');
    box.className = 'error section-error';
    box.setAttribute('role', 'alert');
    box.textContent = `This section could not be drawn (${err && err.message ? err.message : err}). ` +
      'The other sections still work; reloading without the link\'s settings may help.';
    root.querySelector('h2').after(box);
  }
  root.dataset.mounted = '';
  return result;
}
