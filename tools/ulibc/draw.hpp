// draw.hpp — `--draw FILE`: the machine (and a mapping's threads on it) as a
// picture of nested boxes, the way people who tune NUMA programs first look
// at a machine. A layout pass turns the topology into boxes, then a small
// writer prints them as SVG; a .png goes through rsvg-convert.
//
// Nesting follows the CpuSets, never an assumed order: each object lies in
// the smallest object whose processors include its own; where two have the
// same processors the outer one is the first of machine, package, NUMA node,
// L3, L2, L1d, L1i, core, PU. Every box carries class="<level>" (package,
// node, "cache L2", core, pu, thread) and data-* attributes, for scripts that
// count them.
#pragma once
#include <string>

#include "ulibc/mapping.hpp"

namespace ulibc::cli {

enum class PictureFormat { svg, png };

// The format FILE's name asks for; Error(input) for any other ending, so a
// command refuses it before doing any work.
PictureFormat picture_format(const std::string& path);

// The picture as an SVG document. `map`: its threads drawn on their
// processors, coloured by node index; nullptr: the machine alone.
std::string draw_svg(const Topology& topo, const Mapping* map);

// Writes `svg` to `path`, converting it first when `path` ends in .png.
// Error(system) when the file cannot be written, when rsvg-convert is
// missing (naming its package) or when the conversion fails.
void write_picture(const std::string& svg, const std::string& path);

// The one line a command prints instead of its text or JSON once the picture is written.
void print_drawn(const std::string& path);

// The help text of --draw.
extern const char* const kDrawHelp;

}  // namespace ulibc::cli
