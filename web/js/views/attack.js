// Section 11: someone picks the words. The engine's attack operation runs
// one of four searches (pollute, target, forge, remove) with the public
// hash, against a filter that uses the same hash or, keyed, SipHash-2-4
// under a secret key drawn from the seed. A small filter is drawn (its
// bits or counters, one key's positions as the attacker computed them and
// as the filter reads them); a realistic one is run both ways in the worker
// and shown as numbers.
import { run, runLater } from '../engine.js';
import * as state from '../state.js';
import { checkRange, clearErrors, debounce, showError } from '../form.js';
import { count, escapeHtml, list, percent, percentSig, plural, thousands } from '../format.js';

const kinds = ['pollute', 'target', 'forge', 'remove'];
const defaults = { kind: 'pollute', m: '256', k: '4', seed: '1' };

// What each attack is asked to do. The drawn filter's members: one for
// every 10 bits, so its fill stays readable at every m and k allowed.
const small = {
  pollute: () => ({ fill: 0.9 }),
  target: () => ({ count: 20 }),
  forge: (m) => ({ n: Math.floor(m / 10), count: 3 }),
  remove: (m) => ({ n: Math.floor(m / 10), count: 3 }),
};
const smallTries = 2_000_000;
const real = {
  pollute: { fill: 0.5 },
  target: { count: 20 },
  forge: { n: 1000, count: 20 },
  remove: { n: 1000, count: 20 },
};
const realWhat = {
  pollute: 'Crafted words against ordinary ones, each added until half the bits are set.',
  target: '20 innocent keys, each framed in an empty filter of its own.',
  forge: 'A filter of 1,000 members; the attacker holds its bits and searches for 20 words never added that read maybe.',
  remove: 'A counting filter of 1,000 members; the attacker sends 20 crafted words for removal.',
};
const keyWord = {
  pollute: 'the crafted word',
  target: 'the innocent key',
  forge: 'the forged word',
  remove: 'the removed word',
};

// The result, in words, from the report's numbers.
export function sentence(r) {
  if (r.pollute) {
    const p = r.pollute;
    const reached = p.reached ? '' : ` The search ran out of tries before reaching ${percent(r.fill_target, 0)}.`;
    return `${count(p.crafted, 'crafted word')} set ${percent(p.fill_crafted, 1)} of the ${thousands(r.m)} bits; ` +
      `ordinary words took ${thousands(p.random)} to set ${percent(p.fill_random, 1)}: <strong>${p.ratio.toFixed(2)} times as many</strong>. ` +
      `The ideal, k new bits from every crafted word, is ${p.ratio_predicted.toFixed(2)} times. ` +
      `A word never added now reads maybe ${percent(p.fpr, 1)} of the time.${reached}`;
  }
  if (r.target) {
    const t = r.target;
    return `<strong>${thousands(t.hit)} of ${thousands(t.victims)} innocent keys</strong> now read maybe after at most ` +
      `${count(t.most_insertions, 'crafted insertion')} each (${thousands(t.insertions)} in all). ` +
      `By chance, a key would read maybe in the filters they left with probability ${percentSig(t.fpr_by_chance)}.`;
  }
  if (r.forge) {
    const f = r.forge;
    return `From the filter's bits, ${count(r.tries, 'try', 'tries')} found ${count(f.found, 'word')} never added whose bits ` +
      `are all 1 by the public hash; <strong>the filter answers maybe for ${thousands(f.really_maybe)} of them</strong>. ` +
      `A word picked at random reads maybe with probability ${percentSig(f.fpr)}, so ${thousands(f.found)} would take ` +
      `about ${thousands(Math.round(f.tries_expected))} tries.`;
  }
  const d = r.remove;
  if (!d.asked) return `Within ${count(r.tries, 'try', 'tries')} the search found no word whose counters all hold a count, one of them a single member's.`;
  return `${count(d.asked, 'crafted word')}, none of them added, ${plural(d.asked, 'was', 'were')} sent for removal; ` +
    `the filter carried out ${thousands(d.accepted)}, and <strong>${thousands(d.lost)} of its ${thousands(r.n)} members ` +
    `now ${plural(d.lost, 'answers', 'answer')} no</strong>.`;
}

export function mount(root) {
  const form = root.querySelector('#attack-form');
  const $ = (sel) => root.querySelector(sel);
  const picked = state.choice('at_kind', kinds, defaults.kind, 'Attack');
  $('#attack-kind').value = picked.value;
  state.showRefused($('#attack-kind-error'), picked.refused, $('#attack-kind'));
  $('#attack-keyed').checked = state.get('at_keyed', '') === '1';
  $('#attack-m').value = state.get('at_m', defaults.m);
  $('#attack-k').value = state.get('at_k', defaults.k);
  $('#attack-seed').value = state.get('at_seed', defaults.seed);
  let generation = 0;

  function save() {
    const kind = $('#attack-kind').value;
    state.set({
      at_kind: kind === defaults.kind ? null : kind,
      at_keyed: $('#attack-keyed').checked ? '1' : null,
      at_m: $('#attack-m').value === defaults.m ? null : $('#attack-m').value,
      at_k: $('#attack-k').value === defaults.k ? null : $('#attack-k').value,
      at_seed: $('#attack-seed').value === defaults.seed ? null : $('#attack-seed').value,
    });
  }

  const number = (id) => $(id).value.trim().replace(/,/g, '');

  function render() {
    clearErrors(form);
    save();
    const okM = checkRange(form, 'attack', 'm');
    const okK = checkRange(form, 'attack', 'k');
    const okSeed = checkRange(form, 'attack', 'seed');
    generation++;
    if (!okM || !okK || !okSeed) return stale(true);
    const kind = $('#attack-kind').value;
    const keyed = $('#attack-keyed').checked;
    const seed = number('#attack-seed');
    const m = +number('#attack-m');
    const r = run('attack', { kind, m, k: number('#attack-k'), seed, keyed, tries: smallTries, ...small[kind](m) });
    if (showError(form, 'attack', r, 'm')) return stale(true);
    stale(false);
    drawSmall(r);
    realistic(kind, seed);
  }

  function stale(on) {
    $('#attack-out').classList.toggle('stale', on);
    return null;
  }

  function drawSmall(r) {
    const d = r.drawing;
    const text = $('#attack-small-text');
    text.innerHTML = sentence(r);
    text.dataset.kind = r.attack;
    text.dataset.keyed = String(r.keyed);
    const box = $('#attack-cells');
    const aimed = new Set(d.aimed), actual = new Set(d.actual);
    const counters = r.attack === 'remove';
    box.classList.toggle('counting', counters);
    box.innerHTML = d.cells.map((c, i) => {
      const cls = ['cell', c ? 'on' : 'off'];
      if (aimed.has(i)) cls.push('aimed');
      if (r.keyed && actual.has(i)) cls.push('actual');
      return `<span class="${cls.join(' ')}">${counters ? c : ''}</span>`;
    }).join('');
    box.dataset.cells = d.cells.join(',');
    box.dataset.aimed = d.aimed.join(',');
    box.dataset.actual = d.actual.join(',');
    const set = d.cells.filter((c) => c > 0).length;
    const what = counters ? `${thousands(r.m)} counters, ${thousands(set)} above 0` : `${thousands(r.m)} bits, ${thousands(set)} set`;
    let where = '';
    if (d.key) {
      where = r.keyed
        ? `; the attacker aimed ${d.key} at ${list(d.aimed.map(String))}, the filter reads ${list(d.actual.map(String))}`
        : `; ${d.key} is at ${list(d.aimed.map(String))}`;
    }
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', what + where);
    const members = r.n ? ` It held ${count(r.n, 'member')} (one for every 10 ${counters ? 'counters' : 'bits'}) before the attack.` : '';
    let legend = `${counters ? 'Each box is a counter, with its count' : 'Each square is a bit; filled squares are 1'}.${members}`;
    if (r.attack === 'pollute') legend += ' This is the filter the crafted words filled.';
    if (d.key) {
      legend += ` Outlined: where ${keyWord[r.attack]} <strong>${escapeHtml(d.key)}</strong> lands by the public hash, ` +
        `as the attacker computed it (${list(d.aimed.map(String))}).`;
    }
    if (r.keyed && d.key) {
      legend += ` With a dot: where the filter really puts it under its secret key (${list(d.actual.map(String))}). ` +
        'The attacker aimed at the wrong places.';
    }
    $('#attack-legend').innerHTML = legend;
  }

  async function realistic(kind, seed) {
    const mine = generation;
    $('#attack-real-what').textContent = realWhat[kind];
    const base = { kind, m: 10000, k: 7, seed, ...real[kind] };
    const outs = [[$('#attack-public'), false], [$('#attack-keyed-text'), true]];
    for (const [el] of outs) {
      el.textContent = 'Running…';
      el.classList.add('stale');
      delete el.dataset.done;
    }
    const reports = await Promise.all(outs.map(([, keyed]) => runLater('attack', { ...base, keyed })));
    if (mine !== generation) return;
    reports.forEach((r, i) => {
      const el = outs[i][0];
      el.classList.remove('stale');
      el.innerHTML = r.error ? escapeHtml(r.error.message) : sentence(r);
      el.dataset.done = kind;
    });
  }

  const later = debounce(render, 200);
  form.addEventListener('input', later);
  form.addEventListener('change', later);
  form.addEventListener('submit', (e) => e.preventDefault());
  render();
}
