// Every section keeps its inputs in the URL, so a reload or a shared link
// restores it. Keys are prefixed by section (st_, ms_, tu_, sc_, wk_, rm_,
// ov_, ck_, cb_, gr_, bp_, sy_).
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
  history.replaceState(null, '', (query ? '?' + query : location.pathname) + location.hash);
}
