// Line charts with uPlot. The page draws what the engine returns: x values
// and one array per series.
import uPlot from 'uplot';

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
  // Rates arrive as fractions; the axes read in percent. Log scales cannot
  // show 0, so a zero becomes a gap there.
  const toPct = (v) => (logY && v <= 0 ? null : v * 100);
  const data = [x, ...series.map((s) => s.values.map(toPct))];
  const chart = new uPlot(opts, data, el);
  return chart;
}
