// Section 4: a counting filter drawn as numbers. The engine's removal
// operation adds the list, removes words in order (or finds a never-added
// word that reads present and removes that), and reports every counter,
// which fell to zero, which stuck at their maximum, and which members now
// answer "no".
import { limits, run } from '../engine.js';
import * as state from '../state.js';
import { capped, checkRange, clearErrors, debounce, label, lines, showError } from '../form.js';
import { count, escapeHtml, list, plural, thousands } from '../format.js';

export const defaultItems = ['elder', 'fern', 'heather', 'ivy', 'juniper', 'laurel',
  'maple', 'nettle', 'oak', 'rowan', 'sage', 'thyme'];
const defaults = { m: '48', k: '3', width: '2', om: '16' };

// Counters as numbered boxes. marks: { hit, zeroed, stuck } position lists.
export function drawCounters(box, r, marks = {}) {
  const top = r.max_count;
  const hit = new Set(marks.hit || []), zeroed = new Set(marks.zeroed || []), stuck = new Set(marks.stuck || []);
  box.style.setProperty('--cols', String(Math.min(16, r.m)));
  box.innerHTML = r.counters.map((c, i) => {
    const cls = ['counter', c === 0 ? 'zero' : 'on'];
    if (c === top) cls.push('max');
    if (hit.has(i)) cls.push('hit');
    if (zeroed.has(i)) cls.push('zeroed');
    if (stuck.has(i)) cls.push('stuck');
    return `<span class="${cls.join(' ')}" data-pos="${i}" data-value="${c}">` +
      `<span class="sr">counter </span><span class="idx">${i}</span><span class="sr"> holds </span><span class="val">${c}</span></span>`;
  }).join('');
}


export function mount(root) {
  const form = root.querySelector('#removal-form');
  const oform = root.querySelector('#overflow-form');
  const $ = (sel) => root.querySelector(sel);
  const stored = state.get('rm_items', null);
  $('#removal-items').value = stored === null ? defaultItems.join('\n') : stored;
  $('#removal-remove').value = state.get('rm_remove', '');
  $('#removal-m').value = state.get('rm_m', defaults.m);
  $('#removal-k').value = state.get('rm_k', defaults.k);
  $('#overflow-width').value = state.get('ov_w', defaults.width);
  $('#overflow-m').value = state.get('ov_m', defaults.om);
  let wanted = state.get('ov_word', null);
  let words = [];

  function save() {
    const text = $('#removal-items').value;
    state.set({
      rm_items: text === defaultItems.join('\n') ? null : text,
      rm_remove: $('#removal-remove').value,
      rm_m: $('#removal-m').value === defaults.m ? null : $('#removal-m').value,
      rm_k: $('#removal-k').value === defaults.k ? null : $('#removal-k').value,
      ov_w: $('#overflow-width').value === defaults.width ? null : $('#overflow-width').value,
      ov_m: $('#overflow-m').value === defaults.om ? null : $('#overflow-m').value,
      ov_word: wanted,
    });
  }

  function request(extra) {
    return { items: words, m: $('#removal-m').value, k: $('#removal-k').value, hash: 'murmur3', scheme: 'enhanced', width: 4, ...extra };
  }

  function render() {
    clearErrors(form);
    save();
    words = capped(form, 'removal', 'items', lines($('#removal-items').value), limits().items);
    const ok = checkRange(form, 'removal', 'm');
    if (!words.length) {
      $('#removal-items-error').textContent = `${label(form, 'removal', 'items')}: empty; add at least one word, one a line`;
      $('#removal-items').setAttribute('aria-invalid', 'true');
    }
    fillChoices();
    if (!ok || !words.length) return stale(true);

    const member = run('removal', request({ remove: [words[0]] }));
    if (showError(form, 'removal', member, 'items')) return stale(true);
    const remove = capped(form, 'removal', 'remove', lines($('#removal-remove').value), limits().items);
    const hazard = run('removal', request({ remove }));
    if (showError(form, 'removal', hazard, 'remove')) return stale(true);
    stale(false);
    drawMember(member);
    drawHazard(hazard);
    overflow();
  }

  function stale(on) {
    $('#removal-out').classList.toggle('stale', on);
    return null;
  }

  function drawMember(r) {
    const x = r.removed[0];
    const others = r.false_negatives.filter((w) => w !== x.text);
    drawCounters($('#removal-member-grid'), r, { hit: x.positions, zeroed: x.zeroed, stuck: x.stuck });
    let text = `${count(r.n, 'word')} went in. <strong>${escapeHtml(x.text)}</strong> was one of them, so removing it ` +
      `lowers counters ${list(x.positions.map(String))} by one (outlined). `;
    if (x.zeroed.length) text += `${list(x.zeroed.map(String))} fell to 0: only ${escapeHtml(x.text)} was holding ${plural(x.zeroed.length, 'it', 'them')} up. `;
    text += others.length
      ? `Yet ${list(others.map(escapeHtml))} now ${plural(others.length, 'answers', 'answer')} no.`
      : 'Every other word still answers maybe: removing a real member is safe.';
    $('#removal-member-text').innerHTML = text;
    $('#removal-member-grid').dataset.falseNegatives = others.join('\n');
  }

  function drawHazard(r) {
    const grid = $('#removal-hazard-grid');
    const lost = $('#removal-lost');
    if (!r.removed.length) {
      grid.innerHTML = '';
      $('#removal-hazard-text').textContent = 'None of probe-1 to probe-10000 reads present here, so there is nothing to remove by mistake. Try a smaller m.';
      lost.textContent = '';
      lost.dataset.falseNegatives = '';
      return;
    }
    const hit = [], zeroed = [], stuck = [];
    const parts = r.removed.map((x, i) => {
      hit.push(...x.positions);
      zeroed.push(...x.zeroed);
      stuck.push(...x.stuck);
      const w = `<strong>${escapeHtml(x.text)}</strong>`;
      if (x.status === 'not_present') {
        // A 0 says the word is not in the filter now, not that it was
        // never added: an earlier removal may have taken it out.
        const earlier = r.removed.slice(0, i);
        const why = earlier.some((e) => e.text === x.text && e.status === 'removed') ? 'it was removed already'
          : x.member ? 'it was added, but a removal before it took a counter it relied on to 0'
            : 'it was never added';
        return `${w} reads a 0 at one of counters ${list(x.positions.map(String))}, so it is not in the filter now (${why}): the filter refuses to remove it.`;
      }
      let s = x.member
        ? `${w} was added; removing it lowers counters ${list(x.positions.map(String))}.`
        : `${w} was never added, but counters ${list(x.positions.map(String))} are all above 0. So the filter takes it for a member and lowers them.`;
      if (x.zeroed.length) s += ` Counter${plural(x.zeroed.length, '', 's')} ${list(x.zeroed.map(String))} fell to 0 (red).`;
      if (x.stuck.length) s += ` Counter${plural(x.stuck.length, '', 's')} ${list(x.stuck.map(String))} had stuck at the top and stayed.`;
      return s;
    });
    const auto = lines($('#removal-remove').value).length === 0;
    $('#removal-hazard-text').innerHTML = (auto ? 'Start again from the full list. The lab asked probe-1, probe-2, … until one read present. ' : 'Start again from the full list. ') + parts.join(' ');
    drawCounters(grid, r, { hit, zeroed, stuck });
    const fn = r.false_negatives;
    lost.dataset.falseNegatives = fn.join('\n');
    const strangers = r.removed.some((x) => !x.member && x.status === 'removed');
    lost.innerHTML = fn.length
      ? `Now ${fn.length} added ${plural(fn.length, 'word answers', 'words answer')} no: <strong>${list(fn.map(escapeHtml))}</strong>.` +
        (strangers ? ' A false positive, removed as if it were real, has turned into false negatives.' : '')
      : 'No added word answers no this time: no counter a member relies on fell to 0. Try other words or a smaller m.';
    lost.classList.toggle('bad', fn.length > 0);
  }

  function fillChoices() {
    const select = $('#overflow-word');
    const distinct = [...new Set(words)];
    if (wanted !== null && !distinct.includes(wanted)) wanted = null;
    select.innerHTML = distinct.map((w) => `<option>${escapeHtml(w)}</option>`).join('');
    select.value = wanted === null ? distinct[0] || '' : wanted;
  }

  function overflow() {
    clearErrors(oform);
    const okW = checkRange(oform, 'overflow', 'width');
    const okM = checkRange(oform, 'overflow', 'm');
    const word = $('#overflow-word').value;
    if (!okW || !okM || !word) return $('#overflow-out').classList.add('stale');
    const r = run('removal', request({ m: $('#overflow-m').value, width: $('#overflow-width').value, remove: [word] }));
    if (showError(oform, 'overflow', r, 'width')) return $('#overflow-out').classList.add('stale');
    $('#overflow-out').classList.remove('stale');
    const x = r.removed[0];
    const top = r.max_count;
    drawCounters($('#overflow-grid'), r, { hit: x.positions, zeroed: x.zeroed, stuck: x.stuck });
    let text = `The same ${count(r.n, 'word')} in ${thousands(r.m)} counters of ${count(r.width, 'bit')}, ` +
      `which count up to ${top}: ${thousands(r.saturated)} ${plural(r.saturated, 'counter has', 'counters have')} reached ${top} and stuck (purple). `;
    if (x.status === 'not_present') {
      text += `${escapeHtml(x.text)} reads a 0, so it cannot be removed.`;
    } else {
      text += `Removing <strong>${escapeHtml(x.text)}</strong> lowers the counters it can`;
      text += x.stuck.length
        ? `, but counter${plural(x.stuck.length, '', 's')} ${list(x.stuck.map(String))} stayed at ${top}.`
        : '; none of its counters had stuck.';
      const still = r.false_negatives.includes(x.text) ? ' It now answers no.' : ` It still answers maybe: its stuck counters keep it looking present.`;
      text += still;
    }
    $('#overflow-text').innerHTML = text;
    $('#overflow-grid').dataset.stuck = x.stuck.join(',');
    $('#overflow-grid').dataset.saturated = String(r.saturated);
  }

  const later = debounce(render, 150);
  form.addEventListener('input', later);
  oform.addEventListener('input', debounce(() => { save(); overflow(); }, 150));
  $('#overflow-word').addEventListener('change', () => {
    wanted = $('#overflow-word').value === words[0] ? null : $('#overflow-word').value;
    save();
    overflow();
  });
  for (const f of [form, oform]) f.addEventListener('submit', (e) => e.preventDefault());
  render();
}
