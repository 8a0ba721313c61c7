// The questions' live figures, each from the engine.
import { run } from '../engine.js';
import { bytes, count, percent, percentSig, thousands } from '../format.js';

export function mount(root, { stage, measured }) {
  const fact = (name, text) => {
    const el = root.querySelector(`[data-fact="${name}"]`);
    if (el) el.textContent = text;
  };

  // Section 1's filter as it is drawn now: a word it added and looks up, or
  // else what any added word reads.
  function onStaged(r) {
    if (!r) return;
    const member = r.queries.find((q) => q.member);
    fact('member', member
      ? `${member.text} was added and reads ${member.lit.map((b) => (b ? 1 : 0)).join(', ')}.`
      : `every item it added reads ${count(r.k, '1', '1s')}.`);
  }
  onStaged(stage && stage.report());
  document.addEventListener('staged', (e) => onStaged(e.detail.report));

  const one = run('tune', { mode: 'n_p', n: 1000000, p: 0.01 });
  const tenth = run('tune', { mode: 'n_p', n: 1000000, p: 0.001 });
  if (!one.error && !tenth.error) {
    fact('sizing', `For a million items at 1%, that is ${thousands(one.m)} bits (${bytes(one.bytes)}) and ` +
      `${one.k} hashes, ${one.bits_per_item.toFixed(2)} bits an item. At 0.1% it is ${tenth.bits_per_item.toFixed(2)} bits an item ` +
      `and ${tenth.k} hashes.`);
  }

  const billion = run('tune', { mode: 'n_p', n: 1000000000, p: 0.01 });
  if (!billion.error) {
    fact('hashset', `For a billion URLs at 1% that is ${bytes(billion.bytes)} of bits, ` +
      `${billion.bits_per_item.toFixed(1)} bits a URL, where the URLs themselves would take tens of gigabytes.`);
  }

  function onMeasured(e) {
    const { report: r, analyze: a } = e.detail;
    if (!a || a.error) return;
    fact('measure', `Your list of ${thousands(r.n)} filled ${percent(r.fill, 1)} of the bits where ` +
      `${percent(a.fill_expected, 1)} is expected, and measured ${percent(r.fpr_measured)} where the formula says ` +
      `${percent(r.fpr_approx)} and the exact average is ${percentSig(r.fpr_exact)}.`);
  }
  document.addEventListener('measured', onMeasured);
  if (measured) onMeasured({ detail: measured });
}
