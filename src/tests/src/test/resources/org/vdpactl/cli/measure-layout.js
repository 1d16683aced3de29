// Injected by ReportInBrowserTest into a copy of a report, which it shows in an iframe of the width under
// test (headless Chromium's window is at least 500 px wide): measures the layout as the browser laid it
// out and posts the figures as JSON to the wrapping page, which writes them where --dump-dom prints them.
(function () {
  function shown(e) {
    return e.getClientRects().length > 0 && getComputedStyle(e).display !== 'none';
  }
  function union(intervals) {
    intervals.sort(function (a, b) { return a[0] - b[0]; });
    var total = 0, start = null, end = null;
    intervals.forEach(function (i) {
      if (end === null || i[0] > end) {
        if (end !== null) { total += end - start; }
        start = i[0]; end = i[1];
      } else {
        end = Math.max(end, i[1]);
      }
    });
    return end === null ? 0 : total + (end - start);
  }
  var r = {
    innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    bodyScrollWidth: document.body.scrollWidth,
    overflowing: []
  };
  // elements sticking out of the window, except inside a box that scrolls on its own (wide tables)
  document.querySelectorAll('body *').forEach(function (e) {
    if (!shown(e) || e.closest('.scroll')) { return; }
    var b = e.getBoundingClientRect();
    if (b.right > window.innerWidth + 0.5 && r.overflowing.length < 8) {
      r.overflowing.push(e.tagName + '.' + (e.getAttribute('class') || '') + ' right=' + Math.round(b.right));
    }
  });
  var svg = Array.prototype.filter.call(document.querySelectorAll('svg.timeline'), shown)[0];
  if (svg) {
    var plot = svg.querySelector('rect.plot').getBoundingClientRect();
    var bars = Array.prototype.map.call(svg.querySelectorAll('rect.bar.down'), function (b) {
      var c = b.getBoundingClientRect();
      return [c.left, c.right];
    });
    r.timeline = {
      svgClass: svg.getAttribute('class'),
      svgRight: svg.getBoundingClientRect().right,
      plotLeft: plot.left,
      plotWidth: plot.width,
      downtimeBars: bars.length,
      downtimeShare: plot.width > 0 ? union(bars) / plot.width : 0,
      preparationBars: svg.querySelectorAll('rect.bar.prep').length,
      // preparation bars that run during other devices' downtime (pipelined): marked, and explained under the figure
      overlapBars: svg.querySelectorAll('rect.bar.prep.overlap').length,
      overlapBarsDashed: Array.prototype.filter.call(svg.querySelectorAll('rect.bar.prep.overlap'), function (b) {
        return (b.getAttribute('stroke-dasharray') || '').length > 0;
      }).length,
      bottom: svg.getBoundingClientRect().bottom,
      height: svg.getBoundingClientRect().height,
      // the time axis above the rows: its labels and how far below the drawing's top they are
      topAxisLabels: svg.querySelectorAll('text.top-axis').length,
      topAxisOffset: svg.querySelector('text.top-axis')
          ? svg.querySelector('text.top-axis').getBoundingClientRect().top - svg.getBoundingClientRect().top : null,
      preparationGaps: Array.prototype.map.call(svg.querySelectorAll('.prep-gap'), function (g) {
        var b = g.getBoundingClientRect();
        return { text: g.textContent, left: b.left, right: b.right };
      })
    };
  }
  // the note that says what the marked preparation bars are, as the screen shows it
  var note = Array.prototype.filter.call(document.querySelectorAll('.timeline-note.prep-overlap'), shown)[0];
  if (note) {
    var nb = note.getBoundingClientRect();
    r.prepOverlapNote = { text: note.textContent, fontPx: parseFloat(getComputedStyle(note).fontSize), top: nb.top,
      left: nb.left, right: nb.right, height: nb.height, color: getComputedStyle(note).color };
  }
  // each histogram: its bars against its axis, the labels, and whether any two of its texts overlap
  r.histograms = Array.prototype.filter.call(document.querySelectorAll('svg.hist'), shown).map(function (h) {
    var axis = h.querySelector('line.axis').getBoundingClientRect();
    var bars = Array.prototype.map.call(h.querySelectorAll('rect.bin'), function (b) { return b.getBoundingClientRect(); });
    var texts = Array.prototype.slice.call(h.querySelectorAll('text'));
    var boxes = texts.map(function (t) { return t.getBoundingClientRect(); });
    var overlaps = [];
    for (var i = 0; i < boxes.length; i++) {
      for (var j = i + 1; j < boxes.length; j++) {
        var a = boxes[i], b = boxes[j];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
          overlaps.push(texts[i].textContent + ' / ' + texts[j].textContent);
        }
      }
    }
    function labels(selector) {
      return Array.prototype.map.call(h.querySelectorAll(selector), function (t) { return t.textContent; });
    }
    return {
      title: h.querySelector('text.htitle').textContent,
      oneValue: h.classList.contains('one-value'),
      bars: bars.length,
      barCenterOffset: bars.length ? ((bars[0].left + bars[0].right) / 2 - (axis.left + axis.right) / 2) / axis.width : null,
      barShare: bars.length ? bars[0].width / axis.width : null,
      barCounts: labels(':scope > text.count').filter(function (t) { return t !== 'count'; }),
      xticks: labels('text.xtick'),
      percentiles: labels('g.pct text'),
      caption: texts[texts.length - 1].textContent,
      overlaps: overlaps
    };
  });
  r.differingCells = document.querySelectorAll('td.differs').length;
  // the fleet chart's host names as the screen shows them: the font size times the drawing's scale
  var fleetSvgs = Array.prototype.filter.call(document.querySelectorAll('svg.downtime'), shown);
  r.fleetCharts = fleetSvgs.length;
  r.fleetLabelMinPx = null;
  fleetSvgs.forEach(function (f) {
    var scale = f.getBoundingClientRect().width / f.viewBox.baseVal.width;
    f.querySelectorAll('text.lbl').forEach(function (t) {
      var px = parseFloat(getComputedStyle(t).fontSize) * scale;
      r.fleetLabelMinPx = r.fleetLabelMinPx === null ? px : Math.min(r.fleetLabelMinPx, px);
    });
  });
  r.matrixCells = {};
  ['compatible', 'warnings', 'blocked'].forEach(function (v) {
    r.matrixCells[v] = document.querySelectorAll('table.matrix td.v-' + v).length;
  });
  r.matrixCellsWithReasons = Array.prototype.filter.call(document.querySelectorAll('table.matrix td[title]'),
      function (td) { return td.getAttribute('title').length > 0; }).length;
  r.reasonRows = document.querySelectorAll('table.reasons tr.blocker, table.reasons tr.warning').length;
  parent.postMessage(JSON.stringify(r), '*');
})();
