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

// Whether the wrap scrolls now: the class, the focus stop, the region's
// name and the hint follow.
function check(wrap) {
  const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
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

export function fitTables(root = document) {
  const sizes = new ResizeObserver((entries) => { for (const e of entries) check(e.target); });
  for (const wrap of root.querySelectorAll('.table-wrap')) {
    const table = wrap.querySelector('table');
    sizes.observe(wrap);
    if (table) sizes.observe(table);
    new MutationObserver(() => {
      if (table?.classList.contains('stack')) label(table);
      check(wrap);
    }).observe(wrap, { childList: true, subtree: true, characterData: true });
  }
}
