// Line charts with uPlot. The page draws what the engine returns: x values
// and one array per series.
import uPlot from 'uplot';

// uPlot's log axes step through decades from 1e-16 up: a rate in percent
// below logFloor is left out of a log chart (a gap, and a note under it),
// so the axis never walks billions of ticks.
export const logFloor = 1e-12;

const palette = { measured: '#c2410c', approx: '#1d4ed8', exact: '#15803d', marker: '#7c3aed', fixed: '#6b21a8', blocked: '#be185d' };

// A formula line with no dash is drawn as a wide, pale band, so an exact
// line (dashed) on top of it leaves both in sight; the legend names each
// line's style.
const band = 'rgba(29, 78, 216, 0.35)';
function style(s) {
  if (s.kind === 'approx' && !s.dash) return { stroke: band, width: 7, label: `${s.label} (wide band)` };
  return { stroke: palette[s.kind] || '#111827', width: 2, label: s.dash ? `${s.label} (dashed)` : s.label };
}

// x tick labels: whole numbers in full up to 99,999, then short (400K, 2M,
// 1.5B), so they neither collide nor run off the chart's edge.
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const full = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
function xTick(v) {
  if (v === null) return '';
  return Math.abs(v) >= 1e5 ? compact.format(v) : full.format(v);
}

// On a log axis the 2..9 lines of every decade read as a grey block and
// their labels collide: keep 1, 2 and 5 times a power of ten over two
// decades or less, else the powers of ten alone, and of those every second
// or third when the chart is too small to label them all.
function logMarks(u, splits, axisIdx) {
  const pos = splits.filter((v) => v > 0);
  if (pos.length < 2) return splits;
  const span = Math.log10(pos[pos.length - 1] / pos[0]);
  const mantissa = (v) => +(v / 10 ** Math.floor(Math.log10(v) + 1e-9)).toPrecision(6);
  const keep = span <= 2 ? [1, 2, 5] : [1];
  const room = (axisIdx === 0 ? u.bbox.width : u.bbox.height) / (window.devicePixelRatio || 1);
  const kept = splits.filter((v) => v > 0 && keep.includes(mantissa(v)));
  const every = Math.max(1, Math.ceil(kept.length / Math.max(2, Math.floor(room / (axisIdx === 0 ? 56 : 22)))));
  const shown = new Set(kept.filter((v, i) => (kept.length - 1 - i) % every === 0));
  return splits.map((v) => (shown.has(v) ? v : null));
}

// A y axis as wide as its longest tick label (with uPlot's tick and gap
// beside it), so a long one ("0.000001%") never runs into the axis title.
function fitTicks(u, values) {
  if (!values || !values.length) return 48;
  u.ctx.save();
  u.ctx.font = `${12 * uPlot.pxRatio}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  const widest = Math.max(...values.map((v) => (v ? u.ctx.measureText(String(v)).width : 0))) / uPlot.pxRatio;
  u.ctx.restore();
  return Math.max(40, Math.ceil(widest) + 10 + 5 + 6);
}

// series: [{ label, values, kind: 'measured' | 'approx' | 'exact', dash }]
//
// A chart drawn again in the same element with the same lines, axes and
// width keeps its uPlot and only takes the new data (setData): building a
// chart costs several times more than redrawing one.
export function lineChart(el, { x, series, xLabel, yLabel, logX = false, logY = false, marker = null }) {
  const width = Math.max(260, el.clientWidth || 600);
  const shape = JSON.stringify([series.map((s) => [s.label, s.kind, s.dash]), xLabel, yLabel, logX, logY, marker !== null, width]);
  const data = [x, ...series.map((s) => s.values.map((v) => toPercent(v, logY)))];
  const cut = logY && series.some((s) => s.values.some((v) => v !== null && v !== undefined && v > 0 && !(v * 100 >= logFloor)));
  const old = el.__lab;
  if (old && old.shape === shape && el.contains(old.chart.root)) {
    old.now.x = x;
    old.now.marker = marker;
    old.chart.setData(data);
    old.chart.setLegend({ idx: x.length - 1 }, false);
    noteCut(el, cut);
    return old.chart;
  }
  el.textContent = '';
  const now = { x, marker };
  const opts = {
    width,
    height: Math.round(Math.min(320, Math.max(200, width * 0.5))),
    // Room on the right for the last x label.
    padding: [12, 28, null, null],
    scales: { x: { time: false, distr: logX ? 3 : 1 }, y: { distr: logY ? 3 : 1 } },
    axes: [
      { label: xLabel, stroke: '#374151', space: width < 500 ? 64 : 50,
        values: (u, ticks) => ticks.map(xTick),
        ...(logX ? { filter: logMarks, grid: { stroke: '#e5e7eb', filter: logMarks }, ticks: { filter: logMarks } } : { grid: { stroke: '#e5e7eb' } }) },
      { label: yLabel, stroke: '#374151', size: fitTicks,
        values: (u, ticks) => ticks.map((t) => (t === null ? '' : t === 0 ? '0%' : +t.toPrecision(3) + '%')),
        ...(logY ? { filter: logMarks, grid: { stroke: '#e5e7eb', filter: logMarks }, ticks: { filter: logMarks } } : { grid: { stroke: '#e5e7eb' } }) },
    ],
    series: [{ label: xLabel, value: (u, v) => xTick(v ?? null) }, ...series.map((s) => ({
      label: style(s).label,
      spanGaps: s.kind === 'exact',  // an exact value the engine left out is bridged
      stroke: style(s).stroke,
      width: style(s).width,
      dash: s.dash,
      points: { show: !s.dash && (s.kind === 'measured' || s.kind === 'fixed') },
      // A point not drawn (an exact value left out as too slow, or a rate
      // below the log axis) says so: the legend never shows a bare label.
      value: (u, v) => (v === null || v === undefined ? 'not drawn' : +(v).toPrecision(3) + '%'),
    }))],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    // Away from the cursor the legend shows the last point's values, not '--'.
    hooks: {
      ready: [(u) => u.setLegend({ idx: now.x.length - 1 }, false)],
      setCursor: [(u) => { if (u.cursor.idx === null || u.cursor.idx === undefined) u.setLegend({ idx: now.x.length - 1 }, false); }],
    },
  };
  if (marker !== null) {
    opts.hooks.draw = [(u) => {
      const cx = u.valToPos(now.marker, 'x', true);
      u.ctx.save();
      u.ctx.strokeStyle = palette.marker;
      u.ctx.setLineDash([4, 4]);
      u.ctx.beginPath();
      u.ctx.moveTo(cx, u.bbox.top);
      u.ctx.lineTo(cx, u.bbox.top + u.bbox.height);
      u.ctx.stroke();
      u.ctx.restore();
    }];
  }
  const chart = new uPlot(opts, data, el);
  el.__lab = { shape, chart, now };
  noteCut(el, cut);
  return chart;
}

// Rates arrive as fractions; the axes read in percent. A value the engine
// left out (null) is a gap; log scales cannot show 0 or what lies below
// logFloor, so those are gaps there too.
function toPercent(v, logY) {
  if (v === null || v === undefined) return null;
  if (logY && !(v * 100 >= logFloor)) return null;
  return v * 100;
}

// The note under a log chart that leaves out rates below logFloor.
function noteCut(el, cut) {
  let note = el.querySelector(':scope > .chart-note');
  if (!cut) {
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = document.createElement('p');
    note.className = 'muted chart-note';
    note.textContent = `Rates below ${logFloor}% are not drawn.`;
    el.appendChild(note);
  }
}

// Points, one a series, each named beside it on the chart, and one line
// through given points: x a rate (log axis, in percent), y a plain number.
// points: [{ label, x, y }]; line: { label, x: [], y: [] } (x as the points').
const pointColors = ['#c2410c', '#be185d', '#9d174d', '#6b21a8', '#1d4ed8', '#0e7490', '#15803d', '#4d7c0f', '#a16207', '#374151'];
export function pointsChart(el, { points, line, xLabel, yLabel }) {
  const width = Math.max(260, el.clientWidth || 600);
  const xs = [...new Set([...points.map((p) => p.x), ...line.x])].sort((a, b) => a - b);
  const at = (x) => xs.indexOf(x);
  const lineValues = xs.map(() => null);
  line.x.forEach((x, i) => { lineValues[at(x)] = line.y[i]; });
  const data = [xs.map((x) => x * 100), lineValues, ...points.map((p) => xs.map((x) => (x === p.x ? p.y : null)))];
  el.textContent = '';
  const labelFont = 12 * uPlot.pxRatio;
  const opts = {
    width,
    // Taller on a phone: the labels of points close together need lines to move into.
    height: Math.round(width < 500 ? Math.max(320, width * 0.9) : Math.min(380, Math.max(260, width * 0.5))),
    padding: [16, width < 500 ? 24 : 80, null, null],
    scales: { x: { time: false, distr: 3 }, y: { range: (u, lo, hi) => [0, Math.ceil(hi * 1.1)] } },
    axes: [
      { label: xLabel, stroke: '#374151', space: 56,
        values: (u, ticks) => ticks.map((t) => (t === null ? '' : +t.toPrecision(3) + '%')),
        filter: logMarks, grid: { stroke: '#e5e7eb', filter: logMarks }, ticks: { filter: logMarks } },
      { label: yLabel, stroke: '#374151', size: fitTicks, grid: { stroke: '#e5e7eb' } },
    ],
    series: [
      { label: xLabel, value: (u, v) => (v === null || v === undefined ? '' : +v.toPrecision(3) + '%') },
      { label: `${line.label} (dashed)`, stroke: palette.marker, width: 2, dash: [6, 4], spanGaps: true, points: { show: false },
        value: (u, v) => (v === null || v === undefined ? '' : v.toFixed(2)) },
      ...points.map((p, i) => ({
        label: p.label, stroke: pointColors[i % pointColors.length], fill: pointColors[i % pointColors.length],
        paths: () => null, points: { show: true, size: 10, fill: pointColors[i % pointColors.length] },
        value: () => p.y.toFixed(2),
      })),
    ],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    hooks: {
      // Each point named beside it, so the chart reads without the legend's colours.
      draw: [(u) => {
        u.ctx.save();
        u.ctx.font = `${labelFont}px system-ui, sans-serif`;
        u.ctx.fillStyle = '#111827';
        u.ctx.textBaseline = 'middle';
        u.ctx.textAlign = 'left';  // uPlot leaves the alignment of its last axis label
        // Each label goes right of its point, or left, moved up or down a
        // line at a time until it covers no label already drawn and stays in
        // the plot, with a stroke back to its point when moved.
        const step = 14 * uPlot.pxRatio, gap = 8 * uPlot.pxRatio;
        const box = u.bbox;
        // The points themselves are kept clear too.
        const placed = points.map((p) => ({ x: u.valToPos(p.x * 100, 'x', true) - gap / 2, y: u.valToPos(p.y, 'y', true), w: gap }));
        const fits = (x, y, w) => x >= box.left && x + w <= box.left + box.width && y - step / 2 >= box.top &&
          y + step / 2 <= box.top + box.height && !placed.some((r) => x < r.x + r.w && r.x < x + w && Math.abs(r.y - y) < step);
        points.forEach((p) => {
          const cx = u.valToPos(p.x * 100, 'x', true), cy = u.valToPos(p.y, 'y', true);
          const w = u.ctx.measureText(p.label).width;
          let spot = null;
          for (let i = 0; i < 24 && !spot; i++) {
            const y = cy + (i % 2 ? -1 : 1) * Math.ceil(i / 2) * step;
            for (const x of [cx + gap, cx - gap - w]) if (!spot && fits(x, y, w)) spot = { x, y };
          }
          if (!spot) spot = { x: cx + gap, y: cy };
          placed.push({ ...spot, w });
          if (spot.y !== cy) {
            u.ctx.strokeStyle = '#6b7280';
            u.ctx.beginPath();
            u.ctx.moveTo(cx, cy);
            u.ctx.lineTo(spot.x < cx ? spot.x + w : spot.x, spot.y);
            u.ctx.stroke();
          }
          u.ctx.fillText(p.label, spot.x, spot.y);
        });
        u.ctx.restore();
      }],
    },
  };
  return new uPlot(opts, data, el);
}
