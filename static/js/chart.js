// A line chart of the running totals, drawn as SVG by hand.

import { s, h } from './dom.js';
import { number } from './i18n.js';

export const COLORS = ['#d9480f', '#1c7ed6', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599'];

function niceStep(range) {
  const raw = range / 5;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

// series: list (per seat) of numbers, one per deal (running totals); names: per seat;
// xs (optional): the x axis's label of each point, 0 first (default 0, 1, 2, ...).
export function chartEl(series, names, { title = '', xs = null } = {}) {
  const W = 640, H = 280, L = 48, R = 12, T = 16, B = 28;
  const n = Math.max(0, ...series.map((x) => x.length));
  const all = series.flat().concat([0]);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (lo === hi) { lo -= 1; hi += 1; }
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (i) => L + (n ? (i / n) * (W - L - R) : 0);
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': title, preserveAspectRatio: 'xMidYMid meet' });
  if (title) svg.append(s('title', { text: title }));
  for (let v = lo; v <= hi + 1e-9; v += step) {
    svg.append(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? 'zero' : 'grid' }));
    svg.append(s('text', { x: L - 6, y: y(v) + 4, class: 'tick', 'text-anchor': 'end', text: number(Math.round(v * 10) / 10, { useGrouping: false }) }));
  }
  const longest = String(xs ? xs[n] ?? n : n).length;  // 3 digits and more: fewer labels, or they touch on a phone
  const every = Math.max(1, Math.ceil(n / (longest > 2 ? 8 : 12)));
  for (let i = 0; i <= n; i += every) {
    // the last label ends at the plot's edge (a long one would be cut at the side)
    svg.append(s('text', { x: x(i), y: H - 8, class: 'tick', 'text-anchor': i === n && i > 0 ? 'end' : 'middle', text: String(xs ? xs[i] ?? i : i) }));
  }
  series.forEach((vals, seat) => {
    const pts = [[x(0), y(0)], ...vals.map((v, i) => [x(i + 1), y(v)])];
    const color = COLORS[seat % COLORS.length];
    svg.append(s('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: color,
      'stroke-width': 2.5, 'stroke-linejoin': 'round', 'data-seat': seat }));
    vals.forEach((v, i) => svg.append(s('circle', { cx: x(i + 1), cy: y(v), r: 3, fill: color },
      s('title', { text: `${names[seat]}: ${v}` }))));
  });
  const legend = h('div', { class: 'legend' }, names.map((name, seat) => h('span', { class: 'legend-item' },
    h('i', { style: { background: COLORS[seat % COLORS.length] } }), h('span', { text: name }))));
  return h('figure', { class: 'chart-wrap' }, svg, legend);
}
