/** A small log–log SVG line plot (time against N), written by hand so the bench needs no plotting dependency. */

export interface Series {
  readonly label: string;
  readonly color: string;
  readonly points: { x: number; y: number }[];
}

const W = 640;
const H = 400;
const M = { left: 70, right: 160, top: 30, bottom: 50 };

function logScale(min: number, max: number, from: number, to: number): (v: number) => number {
  const lo = Math.log10(min);
  const span = Math.log10(max) - lo || 1;
  return (v) => from + ((Math.log10(v) - lo) / span) * (to - from);
}

function decades(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

export function svgPlot(title: string, series: Series[]): string {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => Math.max(p.y, 0.1)));
  const xTicks = decades(Math.min(...xs), Math.max(...xs));
  const yTicks = decades(Math.min(...ys), Math.max(...ys));
  const x = logScale(xTicks[0], xTicks[xTicks.length - 1], M.left, W - M.right);
  const y = logScale(yTicks[0], yTicks[yTicks.length - 1], H - M.bottom, M.top);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="18" font-size="14">${title}</text>`,
  ];
  for (const t of xTicks) {
    parts.push(`<line x1="${x(t)}" y1="${M.top}" x2="${x(t)}" y2="${H - M.bottom}" stroke="#ddd"/>`, `<text x="${x(t)}" y="${H - M.bottom + 16}" text-anchor="middle">${t}</text>`);
  }
  for (const t of yTicks) {
    parts.push(`<line x1="${M.left}" y1="${y(t)}" x2="${W - M.right}" y2="${y(t)}" stroke="#ddd"/>`, `<text x="${M.left - 6}" y="${y(t) + 4}" text-anchor="end">${t} ms</text>`);
  }
  parts.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">services (N, log scale)</text>`);
  series.forEach((s, i) => {
    const pts = s.points.map((p) => `${x(p.x).toFixed(1)},${y(Math.max(p.y, 0.1)).toFixed(1)}`);
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.join(' ')}"/>`);
    for (const p of pts) parts.push(`<circle cx="${p.split(',')[0]}" cy="${p.split(',')[1]}" r="3" fill="${s.color}"/>`);
    const ly = M.top + 10 + i * 18;
    parts.push(`<rect x="${W - M.right + 12}" y="${ly - 9}" width="12" height="12" fill="${s.color}"/>`, `<text x="${W - M.right + 30}" y="${ly + 1}">${s.label}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
