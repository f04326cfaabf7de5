// draw.cpp — the layout pass and the SVG writer behind --draw (draw.hpp says what is drawn).
#include "draw.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "io/file_io.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::cli {

const char* const kDrawHelp =
    "Draw the machine instead of printing it: FILE.svg, or FILE.png (through rsvg-convert); prints one line "
    "saying where the picture went";

namespace {

// Sizes in SVG user units; 12px text, its width over-estimated so that labels never overflow their box.
constexpr int kPad = 5;
constexpr int kGap = 6;
constexpr int kLineHeight = 15;
constexpr int kCharWidth = 7;
constexpr int kMarkCharWidth = 6;  // thread ids are 10px
constexpr int kMarkHeight = 15;
constexpr int kMarksPerRow = 4;
// Beyond this a processor shows "+N": thousands of threads on a few processors stay a small file.
constexpr int kMaxMarksPerPu = 16;
constexpr double kAspect = 1.6;  // grids lean landscape, as screens do
constexpr int kMargin = 10;
constexpr const char* kOversubscribedStroke = "#c0001a";
constexpr double kOversubscribedWidth = 2.5;
constexpr const char* kOfflineStroke = "#777777";

// Thread colours by node index, repeating after the last; chosen apart in hue and readable under white text.
constexpr const char* kNodePalette[] = {"#1f6fb4", "#d9581a", "#2e8b3e", "#b8283b", "#7a4fb0",
                                        "#8a5a2b", "#c2368f", "#55606b", "#8c8f14", "#138a96"};
constexpr int kPaletteSize = static_cast<int>(std::size(kNodePalette));

enum class Level { machine, package, node, cache, core, pu };

// One object of the machine, then its place in the picture.
struct DrawBox {
  Level level = Level::machine;
  int rank = 0;     // of two objects with the same processors, the lower rank is the outer
  CpuSet cpus;      // its online processors: what decides the nesting
  CpuSet all_cpus;  // online or not: where an offline processor goes
  std::string css;  // the class attribute
  std::vector<std::pair<std::string, std::string>> data;  // data-* attributes
  std::vector<std::string> lines;                         // the label
  std::string fill;
  bool dashed = false;
  bool oversubscribed = false;
  std::vector<const Placement*> threads;  // PUs only
  std::vector<std::unique_ptr<DrawBox>> children;
  int x = 0, y = 0, w = 0, h = 0;
  int cols = 1;
};

using BoxPtr = std::unique_ptr<DrawBox>;

BoxPtr make_box(Level level, int rank, const CpuSet& all, const CpuSet& online, std::string css, std::string fill) {
  auto b = std::make_unique<DrawBox>();
  b->level = level;
  b->rank = rank;
  b->all_cpus = all;
  b->cpus = all & online;
  b->css = std::move(css);
  b->fill = std::move(fill);
  return b;
}

std::string cache_name(const Cache& c) {
  const char* suffix = c.type == "Data" ? "d" : c.type == "Instruction" ? "i" : "";
  return fmt::format("L{}{}", c.level, suffix);
}

const char* cache_fill(int level) {
  if (level >= 3) return "#d6e4f2";
  return level == 2 ? "#e2ecf6" : "#edf3fa";
}

// An outer cache first, and a data cache around its instruction twin.
int cache_rank(const Cache& c) { return 30 + (10 - std::min(c.level, 10)) * 2 + (c.type == "Instruction" ? 1 : 0); }

std::uint64_t total_memory(const Topology& topo) {
  std::uint64_t sum = 0;
  for (const Node& n : topo.nodes()) sum += n.memory_bytes;
  return sum;
}

BoxPtr machine_box(const Topology& topo, const CpuSet& online) {
  BoxPtr b = make_box(Level::machine, 0, topo.all(), online, "machine", "#ffffff");
  b->lines = {fmt::format("Machine ({} total)", ulibc::format_bytes(total_memory(topo)))};
  return b;
}

BoxPtr package_box(const Package& p, const CpuSet& online) {
  BoxPtr b = make_box(Level::package, 10, p.cpus, online, "package", "#e1ecd8");
  b->lines = {fmt::format("Package {}", p.id)};
  b->data = {{"os-index", std::to_string(p.id)}};
  return b;
}

BoxPtr node_box(const Node& n, const CpuSet& online) {
  BoxPtr b = make_box(Level::node, 20, n.cpus, online, n.has_memory() ? "node" : "node memoryless", "#f6edcf");
  std::string memory = n.has_memory() ? ulibc::format_bytes(n.memory_bytes) : "memory-less";
  b->lines = {fmt::format("NUMA node {} ({})", n.id, memory)};
  if (!n.allowed) b->lines.push_back("not in cgroup mems");
  b->dashed = !n.has_memory();
  b->data = {{"os-index", std::to_string(n.id)}, {"memory-bytes", std::to_string(n.memory_bytes)}};
  return b;
}

BoxPtr cache_box(const Cache& c, const CpuSet& online) {
  BoxPtr b =
      make_box(Level::cache, cache_rank(c), c.cpus, online, fmt::format("cache L{}", c.level), cache_fill(c.level));
  b->lines = {fmt::format("{} ({})", cache_name(c), ulibc::format_bytes(c.size_bytes))};
  b->data = {{"level", std::to_string(c.level)}, {"type", c.type}, {"size-bytes", std::to_string(c.size_bytes)}};
  return b;
}

// Cores by their machine-wide number; an offline processor belongs to none.
std::vector<BoxPtr> core_boxes(const Topology& topo, const CpuSet& online) {
  std::map<int, std::pair<CpuSet, int>> cores;  // core → processors, core_id
  for (const Processor& p : topo.processors())
    if (p.core >= 0) {
      cores[p.core].first.set(p.id);
      cores[p.core].second = p.core_id;
    }
  std::vector<BoxPtr> boxes;
  for (const auto& [core, members] : cores) {
    BoxPtr b = make_box(Level::core, 60, members.first, online, "core", "#e3e3e3");
    b->lines = {fmt::format("Core {}", core)};
    b->data = {{"core", std::to_string(core)}, {"core-id", std::to_string(members.second)}};
    boxes.push_back(std::move(b));
  }
  return boxes;
}

BoxPtr pu_box(const Processor& p, const CpuSet& online) {
  CpuSet self;
  self.set(p.id);
  const char* css = !p.online ? "pu offline" : !p.allowed ? "pu disallowed" : "pu";
  const char* fill = !p.online ? "#cfcfcf" : !p.allowed ? "url(#ulibc-disallowed)" : "#ffffff";
  BoxPtr b = make_box(Level::pu, 70, self, online, css, fill);
  b->lines = {fmt::format("PU {}", p.id)};
  b->dashed = !p.online;
  b->data = {{"os-index", std::to_string(p.id)}};
  return b;
}

// Walks down from `root` into the first child whose processors include the box's, and hangs the box there.
void insert_box(DrawBox& root, BoxPtr box, bool by_all) {
  const CpuSet& mine = by_all ? box->all_cpus : box->cpus;
  DrawBox* at = &root;
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const BoxPtr& c : at->children) {
      if (c->level == Level::pu || !(by_all ? c->all_cpus : c->cpus).contains(mine)) continue;
      at = c.get();
      deeper = true;
      break;
    }
  }
  at->children.push_back(std::move(box));
}

// Boxes holding online processors in the order the processors come; offline processors and memory-only nodes
// after them, out of the way of the machine's shape.
void sort_children(DrawBox& b) {
  auto key = [](const BoxPtr& c) {
    const int first = c->all_cpus.empty() ? CpuSet::kMaxId + 1 : c->all_cpus.first();
    return std::tuple(c->cpus.empty(), first, c->rank);
  };
  std::stable_sort(b.children.begin(), b.children.end(),
                   [&](const BoxPtr& l, const BoxPtr& r) { return key(l) < key(r); });
  for (BoxPtr& c : b.children) sort_children(*c);
}

// The tree: online objects by their online processors, largest first, so that each finds its container already
// placed; then what holds no online processor (memory-only nodes, offline processors) where it fits.
BoxPtr build_tree(const Topology& topo) {
  const CpuSet online = topo.online();
  BoxPtr root = machine_box(topo, online);
  std::vector<BoxPtr> boxes;
  for (const Package& p : topo.packages()) boxes.push_back(package_box(p, online));
  for (const Node& n : topo.nodes()) boxes.push_back(node_box(n, online));
  for (const Cache& c : topo.caches()) boxes.push_back(cache_box(c, online));
  for (BoxPtr& b : core_boxes(topo, online)) boxes.push_back(std::move(b));
  for (const Processor& p : topo.processors()) boxes.push_back(pu_box(p, online));
  std::stable_sort(boxes.begin(), boxes.end(), [](const BoxPtr& l, const BoxPtr& r) {
    return std::pair(-l->cpus.count(), l->rank) < std::pair(-r->cpus.count(), r->rank);
  });
  std::vector<BoxPtr> later;
  for (BoxPtr& b : boxes) {
    if (!b->cpus.empty())
      insert_box(*root, std::move(b), false);
    else if (b->level == Level::pu)
      later.push_back(std::move(b));
    else if (b->level == Level::node)
      root->children.push_back(std::move(b));
    // a package, cache or core with no online processor has nothing to show
  }
  for (BoxPtr& b : later) insert_box(*root, std::move(b), true);
  sort_children(*root);
  return root;
}

// ---- layout -----------------------------------------------------------------------------------------------

struct Grid {
  std::vector<int> col_w, row_h;
  int width() const { return span(col_w); }
  int height() const { return span(row_h); }
  static int span(const std::vector<int>& sizes) {
    int sum = 0;
    for (int s : sizes) sum += s;
    return sizes.empty() ? 0 : sum + kGap * static_cast<int>(sizes.size() - 1);
  }
};

Grid grid_of(const DrawBox& b, int cols) {
  const int n = static_cast<int>(b.children.size());
  Grid g;
  g.col_w.assign(static_cast<std::size_t>(std::min(cols, n)), 0);
  g.row_h.assign(static_cast<std::size_t>((n + cols - 1) / cols), 0);
  for (int i = 0; i < n; ++i) {
    const DrawBox& c = *b.children[i];
    int& w = g.col_w[i % cols];
    int& h = g.row_h[i / cols];
    w = std::max(w, c.w);
    h = std::max(h, c.h);
  }
  return g;
}

// A core's few processors in one row; other children in the grid nearest a landscape rectangle, full rows
// preferred, since wide children in one row would make a strip (four packages of eight cores each).
int choose_columns(const DrawBox& b) {
  const int n = static_cast<int>(b.children.size());
  const bool all_pus =
      std::all_of(b.children.begin(), b.children.end(), [](const BoxPtr& c) { return c->level == Level::pu; });
  if (n <= 1 || (all_pus && n <= 8)) return std::max(n, 1);
  int best = 1;
  double best_score = 1e300;
  for (int cols = 1; cols <= n; ++cols) {
    const Grid g = grid_of(b, cols);
    const double ratio = static_cast<double>(g.width()) / std::max(g.height(), 1);
    const double score = std::abs(std::log(ratio / kAspect)) + (n % cols ? 0.3 : 0.0);
    if (score < best_score) best_score = score, best = cols;
  }
  return best;
}

int label_width(const DrawBox& b) {
  std::size_t longest = 0;
  for (const std::string& l : b.lines) longest = std::max(longest, l.size());
  return static_cast<int>(longest) * kCharWidth + 2 * kPad;
}

int header_height(const DrawBox& b) { return static_cast<int>(b.lines.size()) * kLineHeight + kPad; }

struct MarkStyle {
  int width = 20;  // fits the largest thread id
};

int marks_shown(const DrawBox& pu) {
  const int n = static_cast<int>(pu.threads.size());
  return n > kMaxMarksPerPu ? kMaxMarksPerPu + 1 : n;  // the last place says "+N"
}

void measure(DrawBox& b, const MarkStyle& marks) {
  if (b.level == Level::pu) {
    const int shown = marks_shown(b);
    const int per_row = std::min(shown, kMarksPerRow);
    const int rows = (shown + kMarksPerRow - 1) / kMarksPerRow;
    b.w = std::max(label_width(b), per_row * (marks.width + 2) + 2 * kPad);
    b.h = header_height(b) + rows * (kMarkHeight + 2) + kPad;
    return;
  }
  for (BoxPtr& c : b.children) measure(*c, marks);
  b.cols = choose_columns(b);
  const Grid g = grid_of(b, b.cols);
  b.w = std::max(label_width(b), g.width() + 2 * kPad);
  b.h = header_height(b) + g.height() + (b.children.empty() ? 0 : kPad);
}

void place(DrawBox& b, int x, int y) {
  b.x = x;
  b.y = y;
  if (b.children.empty()) return;
  const Grid g = grid_of(b, b.cols);
  const int top = y + header_height(b);
  for (std::size_t i = 0; i < b.children.size(); ++i) {
    const std::size_t col = i % static_cast<std::size_t>(b.cols), row = i / static_cast<std::size_t>(b.cols);
    int cx = x + kPad, cy = top;
    for (std::size_t c = 0; c < col; ++c) cx += g.col_w[c] + kGap;
    for (std::size_t r = 0; r < row; ++r) cy += g.row_h[r] + kGap;
    place(*b.children[i], cx, cy);
  }
}

// ---- the mapping on the tree ------------------------------------------------------------------------------

void index_pus(DrawBox& b, std::map<int, DrawBox*>& pus) {
  if (b.level == Level::pu) pus[b.all_cpus.first()] = &b;
  for (BoxPtr& c : b.children) index_pus(*c, pus);
}

// Hangs each thread on its processor's box; the largest number of threads one processor runs.
int attach_threads(DrawBox& root, const Mapping& map) {
  std::map<int, DrawBox*> pus;
  index_pus(root, pus);
  int most = 0;
  for (const Placement& p : map.threads()) {
    const auto it = pus.find(p.proc);
    if (it == pus.end()) continue;  // the none policy: no processor
    it->second->threads.push_back(&p);
    most = std::max(most, static_cast<int>(it->second->threads.size()));
  }
  for (auto& [proc, pu] : pus)
    if (pu->threads.size() > 1) {
      pu->oversubscribed = true;
      pu->css += " oversubscribed";
      pu->data.emplace_back("threads", std::to_string(pu->threads.size()));
    }
  return most;
}

// ---- SVG ----------------------------------------------------------------------------------------------------

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
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
      default:
        out += c;
    }
  }
  return out;
}

std::string text_at(int x, int y, const std::string& text, const char* extra = "") {
  return fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>", x, y, extra, escaped(text));
}

// The text's baseline within a line that starts at `top`.
int baseline(int top) { return top + 11; }

std::string rect(int x, int y, int w, int h, const std::string& fill, const char* stroke, bool dashed,
                 double stroke_width = 1) {
  return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"{}\" stroke=\"{}\"{}{}/>", x,
                     y, w, h, fill, stroke, stroke_width != 1 ? fmt::format(" stroke-width=\"{}\"", stroke_width) : "",
                     dashed ? " stroke-dasharray=\"4 2\"" : "");
}

const char* node_colour(int node_index) { return kNodePalette[node_index % kPaletteSize]; }

void write_marks(std::string& out, const DrawBox& pu, const MarkStyle& marks) {
  const int shown = marks_shown(pu);
  const int top = pu.y + header_height(pu);
  for (int i = 0; i < shown; ++i) {
    const int x = pu.x + kPad + (i % kMarksPerRow) * (marks.width + 2);
    const int y = top + (i / kMarksPerRow) * (kMarkHeight + 2);
    const bool more = shown > kMaxMarksPerPu && i == shown - 1;
    if (more) {
      const int rest = static_cast<int>(pu.threads.size()) - kMaxMarksPerPu;
      out += fmt::format("<text class=\"more\" data-more=\"{}\" x=\"{}\" y=\"{}\" font-size=\"10\">+{}</text>\n", rest,
                         x + 2, y + 11, rest);
      continue;
    }
    const Placement& t = *pu.threads[i];
    out += fmt::format(
        "<g class=\"thread\" data-thread=\"{}\" data-node-index=\"{}\" data-node=\"{}\" data-proc=\"{}\" "
        "data-colour=\"{}\">",
        t.thread, t.node_index, t.node, t.proc, node_colour(t.node_index));
    out += rect(x, y, marks.width, kMarkHeight, node_colour(t.node_index), "#000000", false, 0.5);
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#ffffff\" text-anchor=\"middle\">{}</text>",
                       x + marks.width / 2, y + 11, t.thread);
    out += "</g>\n";
  }
}

void write_box(std::string& out, const DrawBox& b, const MarkStyle& marks) {
  out += fmt::format("<g class=\"{}\"", b.css);
  for (const auto& [name, value] : b.data) out += fmt::format(" data-{}=\"{}\"", name, escaped(value));
  out += ">";
  const char* stroke = b.oversubscribed                   ? kOversubscribedStroke
                       : b.level == Level::pu && b.dashed ? kOfflineStroke
                                                          : "#000000";
  out += rect(b.x, b.y, b.w, b.h, b.fill, stroke, b.dashed, b.oversubscribed ? kOversubscribedWidth : 1);
  for (std::size_t i = 0; i < b.lines.size(); ++i)
    out += text_at(b.x + kPad, baseline(b.y + 2 + static_cast<int>(i) * kLineHeight), b.lines[i],
                   b.level == Level::pu && b.dashed ? " fill=\"#555555\"" : "");
  out += "\n";
  if (b.level == Level::pu) write_marks(out, b, marks);
  for (const BoxPtr& c : b.children) write_box(out, *c, marks);
  out += "</g>\n";
}

// ---- title and legend ---------------------------------------------------------------------------------------

struct LegendLine {
  std::string swatch_fill;  // "" : no swatch
  bool dashed = false;
  std::string text;
  const char* stroke = "#000000";
  double stroke_width = 1;
};

std::string describe_machine(const Topology& topo) {
  return topo.is_live() ? fmt::format("live machine ({})", topo.fsroot()) : fmt::format("snapshot {}", topo.fsroot());
}

std::string title_of(const Topology& topo, const Mapping* map, int most) {
  std::string title = fmt::format("Machine: {}", describe_machine(topo));
  if (!map) return title;
  title += fmt::format(" - policy {}, {} threads", map->policy().name(), map->size());
  if (most > 1) title += fmt::format(", oversubscribed: up to {} threads on one processor", most);
  return title;
}

CpuSet disallowed_of(const Topology& topo) { return topo.online() - topo.allowed(); }

std::vector<LegendLine> legend_of(const Topology& topo, const Mapping* map, int most) {
  std::vector<LegendLine> lines;
  if (map && map->policy().kind() == PolicyKind::none)
    lines.push_back({"", false, "Policy none: threads are not bound, so none is drawn on a processor"});
  else if (map)
    for (int i = 0; i < map->nodes_used(); ++i)
      lines.push_back({node_colour(i), false,
                       fmt::format("Threads of node index {} (NUMA node {}): {}", i, map->node_ids()[i],
                                   map->threads_per_node()[i])});
  if (most > 1)
    lines.push_back({"#ffffff", false,
                     fmt::format("Red outline: a processor running several threads (up to {} here)", most),
                     kOversubscribedStroke, kOversubscribedWidth});
  if (const CpuSet offline = topo.all() - topo.online(); !offline.empty())
    lines.push_back({"#cfcfcf", true, fmt::format("Offline processors: {}", offline.to_list()), kOfflineStroke});
  if (const CpuSet disallowed = disallowed_of(topo); !disallowed.empty())
    lines.push_back(
        {"url(#ulibc-disallowed)", false,
         fmt::format("Disallowed processors (outside the affinity mask or cgroup cpuset): {}", disallowed.to_list())});
  CpuSet memoryless;
  for (const Node& n : topo.nodes())
    if (!n.has_memory()) memoryless.set(n.id);
  if (!memoryless.empty())
    lines.push_back({"#f6edcf", true, fmt::format("Memory-less NUMA nodes: {}", memoryless.to_list())});
  return lines;
}

constexpr int kSwatch = 12;

int legend_width(const std::vector<LegendLine>& lines) {
  std::size_t longest = 0;
  for (const LegendLine& l : lines) longest = std::max(longest, l.text.size());
  return static_cast<int>(longest) * kCharWidth + kSwatch + kPad;
}

void write_legend(std::string& out, const std::vector<LegendLine>& lines, int x, int y) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LegendLine& l = lines[i];
    const int top = y + static_cast<int>(i) * kLineHeight;
    out += "<g class=\"legend\">";
    if (!l.swatch_fill.empty())
      out += rect(x, top + 1, kSwatch, kSwatch, l.swatch_fill, l.stroke, l.dashed, l.stroke_width);
    out += text_at(x + kSwatch + kPad, baseline(top), l.text);
    out += "</g>\n";
  }
}

int mark_width(const Mapping* map) {
  const int digits = map ? static_cast<int>(std::to_string(std::max(map->size() - 1, 0)).size()) : 1;
  return std::max(20, digits * kMarkCharWidth + 6);
}

const char* const kDefs =
    "<defs><pattern id=\"ulibc-disallowed\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\">"
    "<rect width=\"6\" height=\"6\" fill=\"#f7d4cf\"/><path d=\"M0,6 L6,0\" stroke=\"#c45a4e\" stroke-width=\"1\"/>"
    "</pattern></defs>\n";

// ---- PNG --------------------------------------------------------------------------------------------------

void write_text_file(const std::string& text, const std::string& path) {
  io::write_file(path, [&](std::ostream& out) { out << text; });
}

// Runs rsvg-convert; Error(system) saying where to get it when it cannot start.
int run_converter(const std::vector<std::string>& argv, const std::string& path) {
  try {
    return run_program(argv);
  } catch (const Error& e) {
    throw system_error("--draw " + path + " needs rsvg-convert to make a PNG (" + e.what() +
                       "; Debian: librsvg2-bin, which scripts/setup.sh installs); or draw to a .svg file");
  }
}

void write_png(const std::string& svg, const std::string& path) {
  write_text_file("", path);  // a path that cannot be written is named as such, not as a failed conversion
  int status = 0;
  try {
    const TempFile svg_file("ulibc-draw-", ".svg", "the picture");
    write_text_file(svg, svg_file.path());
    status = run_converter({"rsvg-convert", "--format", "png", "--output", path, svg_file.path()}, path);
  } catch (const Error&) {
    std::filesystem::remove(path);
    throw;
  }
  if (status != 0) {
    std::filesystem::remove(path);
    throw system_error(fmt::format("drawing {} failed: rsvg-convert exited with status {}", path, status));
  }
}

}  // namespace

PictureFormat picture_format(const std::string& path) {
  if (path.ends_with(".svg")) return PictureFormat::svg;
  if (path.ends_with(".png")) return PictureFormat::png;
  throw input_error("--draw " + path + ": the file name must end in .svg or .png");
}

std::string draw_svg(const Topology& topo, const Mapping* map) {
  BoxPtr root = build_tree(topo);
  const int most = map ? attach_threads(*root, *map) : 0;
  const MarkStyle marks{mark_width(map)};
  measure(*root, marks);
  const int title_top = kMargin;
  const int tree_top = title_top + kLineHeight + kPad;
  place(*root, kMargin, tree_top);
  const std::string title = title_of(topo, map, most);
  const std::vector<LegendLine> legend = legend_of(topo, map, most);
  const int legend_top = tree_top + root->h + kGap;
  const int width =
      2 * kMargin + std::max({root->w, static_cast<int>(title.size()) * kCharWidth, legend_width(legend)});
  const int height = legend_top + static_cast<int>(legend.size()) * kLineHeight + kMargin;

  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"12\">\n",
      width, height);
  out += kDefs;
  out += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", width, height);
  out += text_at(kMargin, baseline(title_top), title, " class=\"title\" font-weight=\"bold\"") + "\n";
  write_box(out, *root, marks);
  write_legend(out, legend, kMargin, legend_top);
  out += "</svg>\n";
  return out;
}

void write_picture(const std::string& svg, const std::string& path) {
  if (picture_format(path) == PictureFormat::png)
    write_png(svg, path);
  else
    write_text_file(svg, path);
}

void print_drawn(const std::string& path) { fmt::print("Picture written to {}\n", path); }

}  // namespace ulibc::cli
