// Tables that fit: display only, no figures. A table wider than its card
// scrolls sideways and says so (a line above it, a shadow at the edge that
// has more), and takes the keyboard focus so the arrow keys scroll it. A
// table marked .stack becomes one card per row on a phone (lab.css), each
// cell named by its column's heading.

// Names each cell of a .stack table by its column's heading (data-label,
// which lab.css shows on a phone); rows are redrawn often, so a watcher
// names the new ones.
function label(table) {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
  for (const tr of table.tBodies[0]?.rows || []) {
    let col = 0;
    for (const cell of tr.cells) {
      if (heads[col] !== undefined && cell.dataset.label !== heads[col]) cell.dataset.label = heads[col];
      col += cell.colSpan || 1;
    }
  }
}

// Whether each wrap scrolls now: the class, the focus stop, the region's
// name and the hint follow. Every width is read before anything is
// changed, so the page is laid out once for all of them.
const checked = new WeakSet();
function check(wraps) {
  const now = [...new Set(wraps)].filter(Boolean).map((wrap) => [wrap, wrap.scrollWidth > wrap.clientWidth + 1]);
  for (const [wrap] of now) checked.add(wrap);
  for (const [wrap, scrolls] of now) show(wrap, scrolls);
}

function show(wrap, scrolls) {
  if (scrolls === wrap.classList.contains('scrolls')) return;
  wrap.classList.toggle('scrolls', scrolls);
  let hint = wrap.previousElementSibling?.classList.contains('scroll-hint') ? wrap.previousElementSibling : null;
  if (scrolls) {
    const caption = wrap.querySelector('caption')?.textContent.trim();
    wrap.setAttribute('tabindex', '0');
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', `${caption || 'Table'}, scrolls sideways`);
    if (!hint) {
      hint = document.createElement('p');
      hint.className = 'scroll-hint';
      hint.textContent = 'This table is wider than the screen: scroll it sideways, or Tab to it and use the arrow keys.';
      wrap.before(hint);
    }
  } else {
    for (const a of ['tabindex', 'role', 'aria-label']) wrap.removeAttribute(a);
    hint?.remove();
  }
}

// A table whose rows changed is checked in the next frame, with every other
// one changed since, rather than at once: reading its width lays out the
// page, which done once for each table as the sections are set up would
// take as long as setting them up.
const changed = new Set();
function checkLater(wrap) {
  if (changed.size === 0) requestAnimationFrame(() => {
    check(changed);
    changed.clear();
  });
  changed.add(wrap);
}

// Whether the browser has laid the wrap out: a section off the screen is
// not (content-visibility: auto in lab.css) until it comes near, and
// reading a width there would lay it out now.
const drawn = (wrap) => (wrap.checkVisibility ? wrap.checkVisibility({ contentVisibilityAuto: true }) : true);

// The tables of a section not yet checked (those whose rows never change,
// in a section off the screen): main.js calls this once the section is set
// up, in a task of its own.
export function checkTables(root) {
  check([...root.querySelectorAll('.table-wrap')].filter((w) => !checked.has(w)));
}

export function fitTables(root = document) {
  // A new size of a table or its wrap; those off the screen are checked when
  // they come near (they are laid out then, and this is called again) or
  // by checkTables.
  const sizes = new ResizeObserver((entries) => check(entries.map((e) => e.target.closest('.table-wrap')).filter(drawn)));
  for (const wrap of root.querySelectorAll('.table-wrap')) {
    const table = wrap.querySelector('table');
    sizes.observe(wrap);
    if (table) sizes.observe(table);
    new MutationObserver(() => {
      if (table?.classList.contains('stack')) label(table);
      checkLater(wrap);
    }).observe(wrap, { childList: true, subtree: true, characterData: true });
  }
}
