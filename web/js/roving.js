// One Tab stop for a group of controls (a roving tabindex): the group's
// current member has tabindex 0, the rest -1, and the arrow keys, Home and
// End move the focus within it. Display only.
//
// roving(box, selector, { columns, onMove }): columns() gives the members a
// row (1 for a list: Up and Down move by one); onMove(el, index) runs when
// the focus lands on a member. Returns set(index), which makes a member the
// current one without moving the focus (after a redraw).
export function roving(box, selector, { columns = () => 1, onMove = () => {} } = {}) {
  const members = () => [...box.querySelectorAll(selector)];
  let current = 0;
  function set(index) {
    const all = members();
    if (!all.length) return;
    current = Math.max(0, Math.min(index, all.length - 1));
    all.forEach((el, i) => { el.tabIndex = i === current ? 0 : -1; });
  }
  box.addEventListener('keydown', (e) => {
    const all = members();
    const at = all.indexOf(e.target);
    if (at < 0) return;
    const cols = Math.max(1, columns());
    const to = {
      ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + cols, ArrowUp: at - cols,
      Home: 0, End: all.length - 1,
    }[e.key];
    if (to === undefined || to < 0 || to >= all.length) return;
    e.preventDefault();
    set(to);
    all[to].focus();
  });
  box.addEventListener('focusin', (e) => {
    const at = members().indexOf(e.target);
    if (at < 0) return;
    set(at);
    onMove(e.target, at);
  });
  return set;
}
