// Line charts with uPlot. The page draws what the engine returns: x values
// and one array per series.
import uPlot from 'uplot';

// uPlot's log axes step through decades from 1e-16 up: a rate in percent
// below logFloor is left out of a log chart (a gap, and a note under it),
// so the axis never walks billions of ticks.
export const logFloor = 1e-12;

const palette = { measured: '#c2410c', approx: '#1d4ed8', exact: '#15803d', marker: '#7c3aed', fixed: '#6b21a8', blocked: '#be185d' };

// series: [{ label, values, kind: 'measured' | 'approx' | 'exact', dash }]
export function lineChart(el, { x, series, xLabel, yLabel, logX = false, logY = false, marker = null }) {
  el.textContent = '';
  const width = Math.max(260, el.clientWidth || 600);
  const opts = {
    width,
    height: Math.round(Math.min(320, Math.max(200, width * 0.5))),
    scales: { x: { time: false, distr: logX ? 3 : 1 }, y: { distr: logY ? 3 : 1 } },
    axes: [
      { label: xLabel, stroke: '#374151', grid: { stroke: '#e5e7eb' } },
      { label: yLabel, stroke: '#374151', grid: { stroke: '#e5e7eb' }, size: 64,
        values: (u, ticks) => ticks.map((t) => (t === null ? '' : t === 0 ? '0%' : +t.toPrecision(3) + '%')) },
    ],
    series: [{ label: xLabel }, ...series.map((s) => ({
      label: s.label,
      spanGaps: s.kind === 'exact',  // an exact value the engine left out is bridged
      stroke: palette[s.kind] || '#111827',
      width: 2,
      dash: s.dash,
      points: { show: !s.dash && (s.kind === 'measured' || s.kind === 'fixed') },
      value: (u, v) => (v === null || v === undefined ? '' : +(v).toPrecision(3) + '%'),
    }))],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
  };
  if (marker !== null) {
    opts.hooks = { draw: [(u) => {
      const cx = u.valToPos(marker, 'x', true);
      u.ctx.save();
      u.ctx.strokeStyle = palette.marker;
      u.ctx.setLineDash([4, 4]);
      u.ctx.beginPath();
      u.ctx.moveTo(cx, u.bbox.top);
      u.ctx.lineTo(cx, u.bbox.top + u.bbox.height);
      u.ctx.stroke();
      u.ctx.restore();
    }] };
  }
  // Rates arrive as fractions; the axes read in percent. A value the engine
  // left out (null) is a gap; log scales cannot show 0 or what lies below
  // logFloor, so those are gaps there too.
  let cut = false;
  const toPct = (v) => {
    if (v === null || v === undefined) return null;
    if (logY && !(v * 100 >= logFloor)) {
      cut ||= v > 0;
      return null;
    }
    return v * 100;
  };
  const data = [x, ...series.map((s) => s.values.map(toPct))];
  const chart = new uPlot(opts, data, el);
  if (cut) {
    const note = document.createElement('p');
    note.className = 'muted chart-note';
    note.textContent = `Rates below ${logFloor}% are not drawn.`;
    el.appendChild(note);
  }
  return chart;
}
