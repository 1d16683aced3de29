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
      preparationGaps: Array.prototype.map.call(svg.querySelectorAll('.prep-gap'), function (g) {
        var b = g.getBoundingClientRect();
        return { text: g.textContent, left: b.left, right: b.right };
      })
    };
  }
  r.differingCells = document.querySelectorAll('td.differs').length;
  parent.postMessage(JSON.stringify(r), '*');
})();
