//===- HtmlReportPage.cc - The page of `wgtrace-view html` ----------------===//
//
// Inline CSS and JS only: the report must open from a file on a machine
// without network access. The script draws into an ImageData buffer
// instead of one canvas call per point, so that two million points redraw
// in a fraction of a second, and indexes the drawn points by screen cell so
// that the tooltip finds the record under the mouse without a full scan.
//
// When it has drawn, the page sets data-rendered="N points" on <body>;
// script errors are caught into <pre id="errors">. A headless browser's
// --dump-dom shows both, which is how the test checks the page.
//
//===----------------------------------------------------------------------===//

#include "output/HtmlReportTool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace wgtrace::viewer {

static const char kHead[] = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>)html";

static const char kStyle[] = R"html(</title>
<style>
body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 2px 8px; text-align: right; border-bottom: 1px solid #eee; }
th { background: #f4f4f4; position: sticky; top: 0; }
td.l, th.l { text-align: left; }
#mapbox { position: relative; border: 1px solid #ccc; width: 100%;
          height: 560px; user-select: none; }
#map { width: 100%; height: 100%; cursor: grab; display: block; }
#tip { position: absolute; pointer-events: none; background: #fffff0;
       border: 1px solid #999; padding: 3px 6px; font: 12px monospace;
       white-space: pre; display: none; box-shadow: 1px 1px 3px #0003; }
#errors { color: #b00; }
#errors:empty { display: none; }
#loss { color: #8a4b00; background: #fff7e6; padding: 4px 8px;
        border-left: 3px solid #e0a040; }
#loss:empty { display: none; }
#run { margin: 4px 0; }
#run:empty { display: none; }
.note { color: #666; }
.wgtable { max-height: 420px; overflow: auto; display: inline-block; }
.plot { display: inline-block; margin: 4px 12px 4px 0; }
.plot .pt { font: 12px system-ui, sans-serif; fill: #222; }
.plot .xl, .plot .xt { font: 10px monospace; fill: #555; text-anchor: middle; }
.plot .yl { font: 10px monospace; fill: #555; text-anchor: end; }
.plot .ax { stroke: #999; }
.plot .bar { fill: #4a7fb5; }
.plot .curve { fill: none; stroke: #c0504d; stroke-width: 2; }
button { font: inherit; }
</style>
</head>
<body>
)html";

static const char kBody[] = R"html(<pre id="errors"></pre>
<h1 id="title"></h1>
<div class="note" id="summary"></div>
<pre id="run"></pre>
<pre id="loss"></pre>
<h2>Dispatch sites</h2>
<table id="sites"><thead><tr><th>site</th><th class="l">function</th>
<th>workgroups</th><th>loads</th><th>stores</th></tr></thead><tbody></tbody>
</table>
<h2>Access map</h2>
<div class="note">Address (down, accessed segments back to back, labelled
with the kernel parameter they belong to, gaps between them compressed)
against <span id="xaxis">record order</span> (right), one lane per
processor; a dashed line where a processor begins a launch. Colour:
workgroup. Loads: light; stores: dark. Every access is drawn. Wheel: zoom
(shift: addresses only, alt: x only); drag: pan; double-click: reset.
<span id="xtoggle"></span> <span id="aggregated"></span></div>
<div id="mapbox"><canvas id="map"></canvas><div id="tip"></div></div>
<h2>Workgroups</h2>
<div class="note" id="wgnote"></div>
<div class="wgtable"><table id="wgs"><thead><tr><th>#</th><th>site</th>
<th class="l">function</th><th class="l">workgroup</th><th>pid</th>
<th>loads</th><th>stores</th><th>load bytes</th><th>store bytes</th>
<th>values</th><th>prints</th><th>records</th><th>time (us)</th></tr>
</thead><tbody></tbody></table></div>
<script>
window.addEventListener('error', function (e) {
  document.getElementById('errors').textContent +=
      'error: ' + e.message + ' (' + e.lineno + ':' + e.colno + ')\n';
});
</script>
<script type="application/json" id="data">)html";

static const char kScript[] = R"html(</script>
<script>
(function () {
'use strict';
const D = JSON.parse(document.getElementById('data').textContent);
const $ = (id) => document.getElementById(id);
$('title').textContent = 'wgtrace: ' + D.title;
$('summary').textContent = D.workgroups.length + ' workgroups, ' +
    D.total_accesses + ' loads and stores, ' + D.records + ' records, ' +
    D.segments.length + ' address segments';
$('run').textContent = D.run_text;
$('loss').textContent = D.loss_text;
if (D.grid)
  $('aggregated').textContent = 'Aggregated: all ' + D.total_accesses +
      ' accesses counted in ' + D.grid.n.length + ' cells of ' +
      D.grid.columns + ' x ' + D.grid.rows + ' per lane (more than the ' +
      'page draws one by one).';

// Tables.
const siteRows = [];
for (const s of D.sites)
  siteRows.push('<tr><td>' + s.site + '</td><td class="l">' + esc(s.function) +
      '</td><td>' + s.workgroups + '</td><td>' + s.loads + '</td><td>' +
      s.stores + '</td></tr>');
$('sites').tBodies[0].innerHTML = siteRows.join('');
const kMaxRows = 5000;
const wgRows = [];
// A workgroup whose first records a ring wrap overwrote: '*' after its id.
const wgId = (w) => w[1] + ',' + w[2] + ',' + w[3] + (w[15] ? '*' : '');
let lostBeginnings = 0;
for (const w of D.workgroups)
  lostBeginnings += w[15];
for (let i = 0; i < D.workgroups.length && i < kMaxRows; ++i) {
  const w = D.workgroups[i], s = D.sites[w[0]];
  wgRows.push('<tr><td>' + i + '</td><td>' + s.site + '</td><td class="l">' +
      esc(s.function) + '</td><td class="l">' + wgId(w) +
      '</td><td>' + w[4] + '</td><td>' + w[5] + '</td><td>' + w[6] +
      '</td><td>' + w[7] + '</td><td>' + w[8] + '</td><td>' + w[9] +
      '</td><td>' + w[10] + '</td><td>' + (w[12] - w[11] + 1) + '</td><td>' +
      (w[13] === null ? '' : (w[14] - w[13]).toFixed(1)) + '</td></tr>');
}
$('wgs').tBodies[0].innerHTML = wgRows.join('');
$('wgnote').textContent = (D.workgroups.length > kMaxRows
    ? 'First ' + kMaxRows + ' of ' + D.workgroups.length + ' workgroups.'
    : D.workgroups.length + ' workgroups in record order.') +
    (lostBeginnings ? ' * ' + lostBeginnings + ' workgroup' +
         (lostBeginnings === 1 ? '' : 's') + ' began before what ' +
         'its ring kept: a wrap overwrote the first records, which no ' +
         'count holds.' : '');

function esc(t) {
  return String(t).replace(/[&<>"]/g, (c) => ({'&': '&amp;', '<': '&lt;',
      '>': '&gt;', '"': '&quot;'}[c]));
}

// Lanes: one per processor, each with its own record order.
const lanes = D.lanes.length ? D.lanes : [[0, 1]];
const NL = lanes.length;
let maxRecords = 1;
for (const l of lanes) maxRecords = Math.max(maxRecords, l[1]);
// Points: decode the columns once.
const P = D.points, N = P.x.length;
const px = new Float64Array(N), py = new Float64Array(N);
const plen = new Float64Array(N), pstore = new Uint8Array(N);
const patomic = new Uint8Array(N);
{
  let at = 0;
  for (const d of P.a || []) patomic[at += d] = 1;
}
const pw = new Uint32Array(N), prec = new Float64Array(N);
const pl = new Uint32Array(N);
// The address axis: segments back to back, gaps compressed (laid out by
// the tool).
const segStart = [], segBase = [], segLabel = [];
for (const s of D.segments) {
  segStart.push(s[3]);
  segBase.push(BigInt('0x' + s[0]));
  segLabel.push(s[2]);
}
const ySpan = D.yspan;
function segmentAt(y) {
  let lo = 0, hi = segStart.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segStart[mid] <= y) lo = mid; else hi = mid - 1;
  }
  return lo;
}
let rec = 0;
for (let i = 0; i < N; ++i) {
  rec += P.x[i];
  prec[i] = rec;
  py[i] = segStart[P.s[i]] + P.o[i];
  plen[i] = P.l[i] >> 1;
  pstore[i] = P.l[i] & 1;
  pw[i] = P.w[i];
  pl[i] = P.n[i];
}
// x: record index in the lane, or time interpolated inside each
// workgroup's span.
let useTime = false;
function computeX() {
  for (let i = 0; i < N; ++i) {
    if (!useTime) { px[i] = prec[i]; continue; }
    const w = D.workgroups[pw[i]];
    if (w[13] === null) { px[i] = NaN; continue; }
    const span = Math.max(1, w[12] - w[11]);
    px[i] = w[13] + (w[14] - w[13]) * (prec[i] - w[11]) / span;
  }
}
computeX();
if (D.timed && !D.grid) {
  const b = document.createElement('button');
  b.textContent = 'x axis: record order';
  b.onclick = () => {
    useTime = !useTime;
    b.textContent = 'x axis: ' + (useTime ? 'time (us)' : 'record order');
    $('xaxis').textContent = useTime ? 'time' : 'record order';
    computeX(); reset(); draw();
  };
  $('xtoggle').appendChild(b);
}

// Colours: one hue per workgroup (golden-angle steps), light for loads,
// dark for stores.
function hsl(h, s, l) {
  const a = s * Math.min(l, 1 - l);
  const f = (n) => { const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return (255 << 24) | (f(4) << 16) | (f(8) << 8) | f(0); // ABGR
}
const nw = D.workgroups.length;
const lightColor = new Uint32Array(nw), darkColor = new Uint32Array(nw);
for (let i = 0; i < nw; ++i) {
  const h = (i * 137.508) % 360;
  lightColor[i] = hsl(h, 0.75, 0.68);
  darkColor[i] = hsl(h, 0.85, 0.32);
}

const canvas = $('map'), ctx = canvas.getContext('2d');
const kLeft = 120, kBottom = 22;
let W = 0, H = 0, x0 = 0, x1 = 1, y0 = 0, y1 = 1;
function reset() {
  let lo = Infinity, hi = -Infinity;
  if (useTime) {
    for (let i = 0; i < N; ++i)
      if (px[i] === px[i]) { lo = Math.min(lo, px[i]); hi = Math.max(hi, px[i]); }
  } else { lo = 0; hi = maxRecords; }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  const pad = Math.max(1, (hi - lo) * 0.01);
  x0 = lo - pad; x1 = hi + pad;
  y0 = -Math.max(1, ySpan * 0.01); y1 = ySpan + Math.max(1, ySpan * 0.01);
}
let cellSize = 6, cols = 0, cells = null;

function draw() {
  const r = canvas.getBoundingClientRect();
  W = Math.max(200, Math.floor(r.width)); H = Math.max(100, Math.floor(r.height));
  canvas.width = W; canvas.height = H;
  const pw_ = W - kLeft, ph = H - kBottom;
  const bandH = ph / NL;
  const img = ctx.createImageData(pw_, ph);
  const buf = new Uint32Array(img.data.buffer);
  buf.fill(0xFFFFFFFF);
  const kx = pw_ / (x1 - x0), ky = (bandH - 2) / (y1 - y0);
  cols = Math.ceil(pw_ / cellSize);
  cells = new Int32Array(cols * Math.ceil(ph / cellSize)).fill(-1);
  const put = (x, y, c) => {
    if (x >= 0 && x < pw_ && y >= 0 && y < ph) buf[y * pw_ + x] = c;
  };
  // Lanes, segment boundaries and launch lines.
  for (let l = 0; l < NL; ++l) {
    const top = Math.round(l * bandH);
    if (l > 0) buf.fill(0xFF888888, top * pw_, (top + 1) * pw_);
    for (let s = 0; s < segStart.length; ++s) {
      const y = Math.round(l * bandH + (segStart[s] - y0) * ky);
      if (y > l * bandH && y < (l + 1) * bandH)
        buf.fill(0xFFDDDDDD, y * pw_, (y + 1) * pw_);
    }
  }
  for (const [lane, at] of D.launches) {
    if (useTime) break;
    const x = Math.round((at - x0) * kx);
    if (x < 0 || x >= pw_) continue;
    for (let y = Math.ceil(lane * bandH); y < (lane + 1) * bandH; y += 2)
      put(x, y, 0xFF3030D0);
  }
  const perSegment = new Float64Array(segStart.length);
  let drawn = 0;
  const index = (sx, sy, item) => {
    const cx = Math.floor(sx / cellSize), cy = Math.floor(sy / cellSize);
    if (cx >= 0 && cx < cols && cy >= 0 && sy < ph) cells[cy * cols + cx] = item;
  };
  if (D.grid) {
    const G = D.grid, nc = G.n.length;
    for (let pass = 0; pass < 2; ++pass) // cells with stores on top
      for (let i = 0; i < nc; ++i) {
        if ((G.stores[i] > 0 ? 1 : 0) !== pass) continue;
        const lane = G.n[i], lr = lanes[lane][1];
        const xa = G.c[i] * lr / G.columns, xb = (G.c[i] + 1) * lr / G.columns;
        const ya = G.r[i] * ySpan / G.rows, yb = (G.r[i] + 1) * ySpan / G.rows;
        const sx0 = Math.floor((xa - x0) * kx), sx1 = Math.max(sx0 + 1, Math.ceil((xb - x0) * kx));
        const top = lane * bandH, bottom = (lane + 1) * bandH - 1;
        const sy0 = Math.max(Math.floor(top + (ya - y0) * ky), Math.ceil(top));
        const sy1 = Math.min(Math.max(sy0 + 1, Math.ceil(top + (yb - y0) * ky)), Math.floor(bottom));
        if (sx1 <= 0 || sx0 >= pw_ || sy1 <= sy0) continue;
        const c = pass ? darkColor[G.w[i]] : lightColor[G.w[i]];
        for (let y = sy0; y < sy1; ++y)
          for (let x = Math.max(0, sx0); x < Math.min(pw_, sx1); ++x)
            buf[y * pw_ + x] = c;
        ++drawn;
        perSegment[segmentAt((ya + yb) / 2)] += 1;
        index((sx0 + sx1) >> 1, (sy0 + sy1) >> 1, -2 - i);
      }
  } else {
    for (let pass = 0; pass < 2; ++pass) // stores on top of loads
      for (let i = 0; i < N; ++i) {
        if (pstore[i] !== pass) continue;
        const fx = (px[i] - x0) * kx;
        if (!(fx >= -2 && fx < pw_ + 2)) continue;
        const top = pl[i] * bandH;
        const fy = top + (py[i] - y0) * ky;
        const h = Math.max(1, Math.round(plen[i] * ky));
        if (fy + h < top || fy > top + bandH) continue;
        const sx = Math.round(fx), sy = Math.round(fy);
        ++drawn;
        perSegment[P.s[i]] += 1;
        if (pass === 0) {
          const c = lightColor[pw[i]];
          for (let dy = 0; dy < Math.max(2, h); ++dy) {
            put(sx, sy + dy, c); put(sx + 1, sy + dy, c);
          }
        } else {
          const c = darkColor[pw[i]];
          for (let dy = 0; dy < h; ++dy) put(sx, sy + dy, c);
          put(sx - 1, sy, c); put(sx + 1, sy, c); put(sx, sy - 1, c);
          put(sx, sy + 1, c); put(sx - 2, sy, c); put(sx + 2, sy, c);
        }
        index(sx, sy, i);
      }
  }
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
  ctx.putImageData(img, kLeft, 0);
  // Axes: buffer labels down each lane, processor names, x ticks.
  ctx.fillStyle = '#333'; ctx.font = '11px monospace';
  ctx.strokeStyle = '#999';
  ctx.beginPath(); ctx.moveTo(kLeft - 0.5, 0); ctx.lineTo(kLeft - 0.5, ph + 0.5);
  ctx.lineTo(W, ph + 0.5); ctx.stroke();
  for (let l = 0; l < NL; ++l) {
    const top = l * bandH;
    if (NL > 1) {
      ctx.fillStyle = '#a00';
      ctx.fillText('processor ' + lanes[l][0], 4, top + 11);
      ctx.fillStyle = '#333';
    }
    let lastLabel = top + (NL > 1 ? 6 : -100);
    for (let s = 0; s < segStart.length; ++s) {
      const y = top + (segStart[s] - y0) * ky;
      if (y < top || y > top + bandH - 8 || y - lastLabel < 13) continue;
      lastLabel = y;
      // In the margin, never over the data: cut to what fits left of it.
      let label = segLabel[s].slice(0, 15);
      while (label.length > 1 && ctx.measureText(label).width > kLeft - 8)
        label = label.slice(0, -1);
      ctx.fillText(label, 4, Math.max(top + 10, y + 10));
    }
  }
  const step = niceStep((x1 - x0) / Math.max(1, pw_ / 90));
  for (let t = Math.ceil(x0 / step) * step; t <= x1; t += step) {
    const x = kLeft + (t - x0) * kx;
    ctx.fillText(human(t), x + 2, H - 6);
    ctx.fillRect(x, ph, 1, 4);
  }
  const shown = [];
  for (let s = 0; s < segStart.length; ++s)
    if (perSegment[s] > 0) shown.push(segLabel[s] + ':' + perSegment[s]);
  document.body.dataset.segments = shown.join(',');
  document.body.dataset.rendered = drawn + (D.grid ? ' cells' : ' points');
}
// A count as people read it: 950, 229k, 1.2M (readableNumber() in C++).
function human(v) {
  const suffixes = ['', 'k', 'M', 'G', 'T', 'P'];
  let s = 0;
  while (Math.abs(v) >= 999.5 && s + 1 < suffixes.length) { v /= 1000; ++s; }
  return String(+v.toPrecision(3)) + suffixes[s];
}
function niceStep(raw) {
  const e = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
  for (const m of [1, 2, 5, 10]) if (raw <= m * e) return m * e;
  return 10 * e;
}

// Zoom around the mouse, pan by dragging.
canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const r = canvas.getBoundingClientRect();
  const mx = e.clientX - r.left - kLeft, my = e.clientY - r.top;
  const f = Math.pow(1.0015, e.deltaY);
  const bandH = (H - kBottom) / NL;
  const ax = x0 + (x1 - x0) * mx / (W - kLeft);
  const ay = y0 + (y1 - y0) * (my % bandH) / bandH;
  if (!e.shiftKey) { x0 = ax - (ax - x0) * f; x1 = ax + (x1 - ax) * f; }
  if (!e.altKey) { y0 = ay - (ay - y0) * f; y1 = ay + (y1 - ay) * f; }
  schedule();
}, {passive: false});
let drag = null;
canvas.addEventListener('mousedown', (e) => {
  drag = {x: e.clientX, y: e.clientY, x0, x1, y0, y1};
  canvas.style.cursor = 'grabbing';
});
window.addEventListener('mouseup', () => { drag = null; canvas.style.cursor = 'grab'; });
window.addEventListener('mousemove', (e) => {
  if (drag) {
    const bandH = (H - kBottom) / NL;
    const dx = (e.clientX - drag.x) * (drag.x1 - drag.x0) / (W - kLeft);
    const dy = (e.clientY - drag.y) * (drag.y1 - drag.y0) / bandH;
    x0 = drag.x0 - dx; x1 = drag.x1 - dx; y0 = drag.y0 - dy; y1 = drag.y1 - dy;
    $('tip').style.display = 'none';
    schedule();
    return;
  }
  tooltip(e);
});
canvas.addEventListener('dblclick', () => { reset(); schedule(); });
canvas.addEventListener('mouseleave', () => { $('tip').style.display = 'none'; });
window.addEventListener('resize', () => schedule());
let pending = false;
function schedule() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; draw(); });
}

// The record (or grid cell) under the mouse: the item indexed in the
// cell of the mouse or its neighbours.
function tooltip(e) {
  const tip = $('tip');
  const r = canvas.getBoundingClientRect();
  const mx = e.clientX - r.left - kLeft, my = e.clientY - r.top;
  if (!cells || mx < 0 || my < 0 || mx >= W - kLeft || my >= H - kBottom) {
    tip.style.display = 'none';
    return;
  }
  const cx = Math.floor(mx / cellSize), cy = Math.floor(my / cellSize);
  let best = -1;
  for (let d = 0; d <= 1 && best === -1; ++d)
    for (let y = cy - d; y <= cy + d; ++y)
      for (let x = cx - d; x <= cx + d; ++x)
        if (x >= 0 && x < cols && y >= 0 && cells[y * cols + x] !== -1 &&
            cells[y * cols + x] !== undefined && best === -1)
          best = cells[y * cols + x];
  if (best === -1) { tip.style.display = 'none'; return; }
  if (best <= -2) {
    const G = D.grid, i = -2 - best, lane = G.n[i], lr = lanes[lane][1];
    const ya = G.r[i] * ySpan / G.rows, s = segmentAt(ya);
    const w = D.workgroups[G.w[i]];
    const addr = segBase[s] + BigInt(Math.max(0, Math.floor(ya - segStart[s])));
    tip.textContent = G.loads[i] + ' loads, ' + G.stores[i] + ' stores\n' +
        segLabel[s] + ' from 0x' + addr.toString(16) + '\nprocessor ' +
        lanes[lane][0] + ', records ' + Math.floor(G.c[i] * lr / G.columns) +
        '-' + Math.floor((G.c[i] + 1) * lr / G.columns) + '\nlast workgroup ' +
        wgId(w);
  } else {
    const w = D.workgroups[pw[best]], s = D.sites[w[0]];
    const addr = segBase[P.s[best]] + BigInt(P.o[best]);
    tip.textContent = (patomic[best] ? 'atomic ' : '') +
        (pstore[best] ? 'STORE ' : 'LOAD  ') + '0x' +
        addr.toString(16) + ' ' + plen[best] + ' bytes (' +
        segLabel[P.s[best]] + ')\n' + 'workgroup ' + wgId(w) + ' pid ' +
        w[4] + ' (#' + pw[best] + ')' +
        (w[15] ? ' (beginning overwritten by a wrap)' : '') + '\n' +
        'dispatch site ' + s.site + ': ' + s.function + '\nrecord ' +
        prec[best] + ' of processor ' + lanes[pl[best]][0];
  }
  tip.style.display = 'block';
  tip.style.left = Math.min(e.clientX - r.left + 14, W - 260) + 'px';
  tip.style.top = (e.clientY - r.top + 14) + 'px';
}

reset();
draw();
})();
</script>
<h2>Plots</h2>
)html";

static const char kTail[] = R"html(</body>
</html>
)html";

void writeHtmlReportPage(llvm::raw_ostream &OS, llvm::StringRef Title,
                         llvm::StringRef Damage, llvm::StringRef DataJson,
                         llvm::StringRef Plots) {
  OS << kHead;
  llvm::printHTMLEscaped(Title, OS);
  OS << kStyle << Damage << kBody << DataJson << kScript << Plots << kTail;
}

} // namespace wgtrace::viewer
