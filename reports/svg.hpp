// Plots as inline SVG for the HTML report: drawn here rather than by matplotlib, so that the page
// is one file with no dependency and no network (inline in HTML, with no namespace: the page
// holds no address at all). Every point carries a <title>, so that a
// browser shows its value on hover with no script.
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace apsp::report::svg {

// `text` safe inside an element or a quoted attribute (& < > " ' as entities).
std::string escape(std::string_view text);

struct Point {
  double x = 0, y = 0;
  double lo = NAN, hi = NAN;  // an interval around y (drawn as a bar), or NAN
  std::string tip;            // shown on hover
};
struct Series {
  std::string name;
  std::vector<Point> points;
  bool guide = false;  // a dashed grey line (the n^3 guide), no markers
  std::string colour;  // "": the palette's next
};
// The palette's i-th colour (cycling), so that a run keeps its colour from plot to plot.
std::string colour(size_t i);
struct Axes {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = false;
  double y_ref = NAN;  // a dotted horizontal line (1x, 100%), or NAN
};
// Lines with markers, a legend below; "" when no series has a point.
std::string line_plot(const Axes& axes, const std::vector<Series>& series);

struct Bar {
  std::string label;
  std::vector<double> parts;  // stacked left to right
  std::string tip;
  std::string value;  // written after the bar ("3.456 ms"), or ""
};
// Horizontal bars, stacked by part (a legend of `part_names` when more than one).
std::string bar_plot(const std::string& title, const std::string& x_label,
                     const std::vector<std::string>& part_names, const std::vector<Bar>& bars);

// A grid of values (rows y, columns x; NAN where none), coloured low = light (the best time).
std::string heatmap(const std::string& title, const std::string& x_label,
                    const std::string& y_label, const std::vector<std::string>& xs,
                    const std::vector<std::string>& ys,
                    const std::vector<std::vector<double>>& values);

struct Interval {
  std::string label, kind;  // kind: a CSS class ("faster", "same", ...)
  double mid = 0, lo = 0, hi = 0;
  std::string tip;
};
// One row per interval around a reference line at `ref`, a band [band_lo, band_hi] shaded.
std::string interval_plot(const std::string& title, const std::string& x_label,
                          const std::vector<Interval>& rows, double ref, double band_lo,
                          double band_hi);

}  // namespace apsp::report::svg
