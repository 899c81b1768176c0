#include "reports/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

namespace apsp::report::svg {

namespace {

constexpr double kFont = 12;      // px; the legend's width is estimated from it
constexpr double kCharPx = 6.8;   // a character's mean advance at kFont in a sans-serif font
constexpr size_t kMaxLabel = 44;  // longer names are cut (the whole name is on hover)
constexpr std::array<const char*, 10> kColours = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                  "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                                  "#bcbd22", "#17becf"};

// A value's position in pixels: linear or log10 from [lo, hi] onto [a, b].
struct Scale {
  double lo = 0, hi = 1;
  bool log = false;
  double a = 0, b = 1;
  double t(double v) const { return log ? std::log10(v) : v; }
  double operator()(double v) const { return a + (t(v) - t(lo)) / (t(hi) - t(lo)) * (b - a); }
  bool shows(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

double nice_step(double range) {
  const double raw = range / 5, p = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

// The scale that holds [mn, mx] (with a margin), from zero when `zero` on a linear axis.
Scale fit(double mn, double mx, bool log, bool zero, double a, double b) {
  Scale s{mn, mx, log, a, b};
  if (log) {
    s.lo = mn / 1.25;
    s.hi = mx * 1.25;
    return s;
  }
  if (zero) mn = std::min(0.0, mn);
  if (mx <= mn) mx = mn + 1;
  const double step = nice_step(mx - mn);
  s.lo = std::floor(mn / step) * step;
  s.hi = std::ceil(mx / step) * step;
  return s;
}

std::vector<double> ticks(const Scale& s) {
  std::vector<double> out;
  if (s.log) {
    const int d0 = static_cast<int>(std::floor(std::log10(s.lo)));
    const int d1 = static_cast<int>(std::ceil(std::log10(s.hi)));
    const bool fine = d1 - d0 <= 2;  // few decades: 1, 2, 5 in each
    for (int d = d0; d <= d1; ++d)
      for (double m : {1.0, 2.0, 5.0})
        if ((m == 1.0 || fine) && m * std::pow(10, d) >= s.lo && m * std::pow(10, d) <= s.hi)
          out.push_back(m * std::pow(10, d));
    return out;
  }
  const double step = nice_step(s.hi - s.lo);
  for (double v = std::ceil(s.lo / step - 1e-9) * step; v <= s.hi + step * 1e-9; v += step)
    out.push_back(std::abs(v) < step / 1e6 ? 0 : v);
  return out;
}

std::string number(double v) { return fmt::format("{:g}", v); }

std::string cut(const std::string& name) {
  return name.size() <= kMaxLabel ? name : name.substr(0, kMaxLabel - 1) + "…";
}

std::string open_svg(double w, double h, const std::string& title) {
  return fmt::format(
      "<svg class=\"plot\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "width=\"{:.0f}\" height=\"{:.0f}\" role=\"img\" aria-label=\"{}\" font-size=\"{}\">\n"
      "<text class=\"title\" x=\"{:.0f}\" y=\"18\" text-anchor=\"middle\">{}</text>\n",
      w, h, w, h, escape(title), kFont, w / 2, escape(title));
}

// The frame of an x-y plot: grid, ticks and their labels, the axes' labels.
std::string frame(const Scale& x, const Scale& y, const Axes& axes, bool y_ticks = true) {
  std::string out = fmt::format(
      "<rect class=\"frame\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n", x.a,
      y.b, x.b - x.a, y.a - y.b);
  for (double v : ticks(x))
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\"/>"
        "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
        x(v), y.b, y.a, y.a + 16, number(v));
  for (double v : y_ticks ? ticks(y) : std::vector<double>{})
    out += fmt::format(
        "<line class=\"grid\" x1=\"{1:.1f}\" x2=\"{2:.1f}\" y1=\"{0:.1f}\" y2=\"{0:.1f}\"/>"
        "<text x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        y(v), x.a, x.b, x.a - 6, y(v) + 4, number(v));
  if (std::isfinite(axes.y_ref) && y.shows(axes.y_ref) && axes.y_ref >= y.lo && axes.y_ref <= y.hi)
    out += fmt::format(
        "<line class=\"ref\" x1=\"{0:.1f}\" x2=\"{1:.1f}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\"/>\n", x.a,
        x.b, y(axes.y_ref));
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                     (x.a + x.b) / 2, y.a + 36, escape(axes.x_label));
  out += fmt::format(
      "<text x=\"14\" y=\"{0:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
      "{0:.1f})\">{1}</text>\n",
      (y.a + y.b) / 2, escape(axes.y_label));
  return out;
}

// A series' line, interval bars and markers, each marker with its value on hover.
std::string draw_series(const Series& s, const Scale& x, const Scale& y, const char* colour) {
  std::string path, marks;
  for (const Point& p : s.points) {
    if (!x.shows(p.x) || !y.shows(p.y)) continue;
    path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", x(p.x), y(p.y));
    if (s.guide) continue;
    if (y.shows(p.lo) && y.shows(p.hi))
      marks += fmt::format(
          "<path class=\"ci\" stroke=\"{0}\" d=\"M{1:.1f},{2:.1f} V{3:.1f} M{4:.1f},{2:.1f} "
          "h6 M{4:.1f},{3:.1f} h6\"/>",
          colour, x(p.x), y(p.lo), y(p.hi), x(p.x) - 3);
    marks += fmt::format(
        "<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" "
        "fill=\"{}\"><title>{}</title>"
        "</circle>\n",
        x(p.x), y(p.y), colour, escape(p.tip));
  }
  if (path.empty()) return "";
  return fmt::format(
      "<g class=\"series\"><title>{}</title><path class=\"{}\" stroke=\"{}\" d=\"{}\"/>\n{}</g>\n",
      escape(s.name), s.guide ? "guide" : "line", s.guide ? "#555" : colour, path, marks);
}

// A legend entry: a line in its colour (dashed for a guide) and the name.
struct Key {
  std::string name, colour;
  bool dashed = false;
};

double key_width(const std::vector<Key>& keys) {
  size_t longest = 0;
  for (const Key& k : keys) longest = std::max(longest, std::min(k.name.size(), kMaxLabel));
  return 34 + kCharPx * static_cast<double>(longest);
}

// The legend in columns of key_width across `width`, from (x, y); its height in `height`.
std::string legend(const std::vector<Key>& keys, double x, double y, double width, double& height) {
  const double col = key_width(keys);
  const size_t per_row = std::max<size_t>(1, static_cast<size_t>(width / col));
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) {
    const double lx = x + col * static_cast<double>(i % per_row);
    const double ly = y + 18.0 * static_cast<double>(i / per_row);
    out += fmt::format(
        "<g class=\"legend\"><title>{4}</title><line x1=\"{0:.1f}\" x2=\"{1:.1f}\" "
        "y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\" stroke-width=\"3\"{6}/>"
        "<text x=\"{5:.1f}\" y=\"{7:.1f}\">{8}</text></g>\n",
        lx, lx + 18, ly, keys[i].colour, escape(keys[i].name), lx + 24,
        keys[i].dashed ? " stroke-dasharray=\"5 4\"" : "", ly + 4, escape(cut(keys[i].name)));
  }
  height = 18.0 * static_cast<double>((keys.size() + per_row - 1) / per_row);
  return out;
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string colour(size_t i) { return kColours[i % kColours.size()]; }

namespace {

// Whether a point can be drawn on these axes.
bool drawable(const Point& p, const Axes& axes) {
  return std::isfinite(p.x) && std::isfinite(p.y) && (!axes.log_x || p.x > 0) &&
         (!axes.log_y || p.y > 0);
}

}  // namespace

std::string line_plot(const Axes& axes, const std::vector<Series>& series) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  std::vector<Key> keys;
  std::vector<const Series*> shown;
  for (const Series& s : series) {
    const size_t before = keys.size();
    for (const Point& p : s.points) {
      if (!drawable(p, axes)) continue;
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
      y0 = std::min({y0, p.y, std::isfinite(p.lo) ? p.lo : p.y});
      y1 = std::max({y1, p.y, std::isfinite(p.hi) ? p.hi : p.y});
      if (keys.size() == before)
        keys.push_back({s.name,
                        s.guide            ? "#555"
                        : s.colour.empty() ? colour(before)
                                           : s.colour,
                        s.guide});
    }
    if (keys.size() > before) shown.push_back(&s);
  }
  if (keys.empty()) return "";
  if (std::isfinite(axes.y_ref) && !axes.log_y) y1 = std::max(y1, axes.y_ref);
  const double plot_w = 420, plot_h = 250, w = 64 + plot_w + 16;
  double legend_h = 0;
  const std::string keys_svg = legend(keys, 20, 32 + plot_h + 52, w - 24, legend_h);
  const double h = 32 + plot_h + 52 + legend_h + 6;
  const Scale x = fit(x0, x1, axes.log_x, false, 64, 64 + plot_w);
  const Scale y = fit(y0, y1, axes.log_y, !axes.log_y, 32 + plot_h, 32);
  std::string out = open_svg(w, h, axes.title) + frame(x, y, axes);
  for (size_t i = 0; i < shown.size(); ++i)
    out += draw_series(*shown[i], x, y, keys[i].colour.c_str());
  return out + keys_svg + "</svg>\n";
}

namespace {

// viridis, reversed: 0 (the lowest value, the best time) light yellow, 1 dark purple.
std::string colour_of(double t) {
  static constexpr std::array<std::array<double, 3>, 5> stops = {
      {{253, 231, 37}, {94, 201, 98}, {33, 145, 140}, {59, 82, 139}, {68, 1, 84}}};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  const size_t i = std::min(static_cast<size_t>(t), stops.size() - 2);
  const double f = t - static_cast<double>(i);
  std::array<int, 3> c{};
  for (int k = 0; k < 3; ++k)
    c[k] = static_cast<int>(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k])));
  return fmt::format("rgb({},{},{})", c[0], c[1], c[2]);
}

}  // namespace

std::string bar_plot(const std::string& title, const std::string& x_label,
                     const std::vector<std::string>& part_names, const std::vector<Bar>& bars) {
  if (bars.empty()) return "";
  double most = 0;
  size_t longest = 0;
  for (const Bar& b : bars) {
    double sum = 0;
    for (double v : b.parts) sum += std::max(0.0, v);
    most = std::max(most, sum);
    longest = std::max(longest, std::min(b.label.size(), kMaxLabel));
  }
  const double left = 16 + kCharPx * static_cast<double>(longest), plot_w = 360;
  const double legend_h = part_names.size() > 1 ? 24 : 0, row = 22;
  const double h = 40 + legend_h + row * static_cast<double>(bars.size()) + 40;
  const Scale x = fit(0, most, false, true, left, left + plot_w);
  const Scale y{0, 1, false, h - 40, 40 + legend_h};
  std::string out =
      open_svg(left + plot_w + 130, h, title) + frame(x, y, Axes{"", x_label, ""}, false);
  for (size_t p = 0; p < part_names.size() && part_names.size() > 1; ++p)
    out += fmt::format(
        "<rect x=\"{0:.1f}\" y=\"30\" width=\"12\" height=\"12\" fill=\"{1}\"/><text x=\"{2:.1f}\" "
        "y=\"40\">{3}</text>\n",
        left + 110.0 * p, kColours[p % kColours.size()], left + 110.0 * p + 16,
        escape(part_names[p]));
  for (size_t i = 0; i < bars.size(); ++i) {
    const double top = 40 + legend_h + row * static_cast<double>(i) + 4;
    out += fmt::format(
        "<g class=\"bar\"><title>{}</title><text x=\"{:.1f}\" y=\"{:.1f}\" "
        "text-anchor=\"end\">{}</text>",
        escape(bars[i].tip), left - 6, top + 11, escape(cut(bars[i].label)));
    double at = 0;
    for (size_t p = 0; p < bars[i].parts.size(); ++p) {
      const double v = std::max(0.0, bars[i].parts[p]);
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"14\" fill=\"{}\"/>", x(at),
          top, x(at + v) - x(at), kColours[p % kColours.size()]);
      at += v;
    }
    if (!bars[i].value.empty())
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", x(at) + 6, top + 11,
                         escape(bars[i].value));
    out += "</g>\n";
  }
  return out + "</svg>\n";
}

std::string heatmap(const std::string& title, const std::string& x_label,
                    const std::string& y_label, const std::vector<std::string>& xs,
                    const std::vector<std::string>& ys,
                    const std::vector<std::vector<double>>& values) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& row : values)
    for (double v : row)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!std::isfinite(lo) || xs.empty() || ys.empty()) return "";
  const double cell_w = std::max(44.0, 360.0 / static_cast<double>(xs.size())), cell_h = 30;
  const double left = 64, top = 34, w = left + cell_w * static_cast<double>(xs.size()) + 20;
  const double h = top + cell_h * static_cast<double>(ys.size()) + 52;
  std::string out = open_svg(w, h, title);
  for (size_t r = 0; r < ys.size(); ++r) {
    const double y = top + cell_h * static_cast<double>(ys.size() - 1 - r);  // row 0 at the bottom
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6,
                       y + cell_h / 2 + 4, escape(ys[r]));
    for (size_t c = 0; c < xs.size() && c < values[r].size(); ++c) {
      const double v = values[r][c];
      if (!std::isfinite(v)) continue;
      const double t = hi > lo ? (v - lo) / (hi - lo) : 0;
      const double x = left + cell_w * static_cast<double>(c);
      out += fmt::format(
          "<g class=\"cell\"><title>{0} = {1}, {2} = {3}: {4:.3f} ms</title><rect x=\"{5:.1f}\" "
          "y=\"{6:.1f}\" width=\"{7:.1f}\" height=\"{8:.1f}\" fill=\"{9}\"/><text x=\"{10:.1f}\" "
          "y=\"{11:.1f}\" text-anchor=\"middle\" font-size=\"10\" class=\"{12}\">{13}</text></g>\n",
          escape(x_label), escape(xs[c]), escape(y_label), escape(ys[r]), v, x, y, cell_w - 1,
          cell_h - 1, colour_of(t), x + cell_w / 2, y + cell_h / 2 + 4,
          t < 0.5 ? "on-light" : "on-dark", fmt::format("{:.4g}", v));
    }
  }
  for (size_t c = 0; c < xs.size(); ++c)
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                       left + cell_w * (static_cast<double>(c) + 0.5),
                       top + cell_h * static_cast<double>(ys.size()) + 16, escape(xs[c]));
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n<text x=\"14\" "
      "y=\"{:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1f})\">{}</text>\n",
      left + cell_w * static_cast<double>(xs.size()) / 2, h - 10, escape(x_label),
      top + cell_h * static_cast<double>(ys.size()) / 2,
      top + cell_h * static_cast<double>(ys.size()) / 2, escape(y_label));
  return out + "</svg>\n";
}

std::string interval_plot(const std::string& title, const std::string& x_label,
                          const std::vector<Interval>& rows, double ref, double band_lo,
                          double band_hi) {
  if (rows.empty()) return "";
  double lo = std::min(ref, band_lo), hi = std::max(ref, band_hi);
  size_t longest = 0;
  for (const Interval& r : rows) {
    lo = std::min({lo, r.lo, r.mid}), hi = std::max({hi, r.hi, r.mid});
    longest = std::max(longest, std::min(r.label.size(), kMaxLabel));
  }
  const double pad = (hi - lo) * 0.08 + 1e-3, left = 16 + kCharPx * static_cast<double>(longest);
  const double row = 20, h = 40 + row * static_cast<double>(rows.size()) + 44, plot_w = 420;
  Scale x{lo - pad, hi + pad, false, left, left + plot_w};
  const Scale y{0, 1, false, h - 44, 36};
  std::string out = open_svg(left + plot_w + 24, h, title);
  out += fmt::format(
      "<rect class=\"band\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"><title>"
      "the same: within [{:.3g}, {:.3g}]</title></rect>\n",
      x(band_lo), y.b, x(band_hi) - x(band_lo), y.a - y.b, band_lo, band_hi);
  out += frame(x, y, Axes{"", x_label, ""}, false);
  out += fmt::format(
      "<line class=\"ref\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\"/>\n", x(ref),
      y.b, y.a);
  for (size_t i = 0; i < rows.size(); ++i) {
    const Interval& r = rows[i];
    const double cy = 36 + row * (static_cast<double>(i) + 0.5) + 4;
    out += fmt::format(
        "<g class=\"interval {0}\"><title>{1}</title><text x=\"{2:.1f}\" y=\"{3:.1f}\" "
        "text-anchor=\"end\">{4}</text><line x1=\"{5:.1f}\" x2=\"{6:.1f}\" y1=\"{7:.1f}\" "
        "y2=\"{7:.1f}\"/><circle cx=\"{8:.1f}\" cy=\"{7:.1f}\" r=\"4\"/></g>\n",
        escape(r.kind), escape(r.tip), left - 6, cy + 4, escape(cut(r.label)), x(r.lo),
        std::max(x(r.hi), x(r.lo) + 1), cy, x(r.mid));
  }
  return out + "</svg>\n";
}

}  // namespace apsp::report::svg
