// graph/dimacs_io.hpp — shortest-path inputs in files: the text formats of the
// 9th DIMACS Implementation Challenge (road networks and their queries), and
// ULIBC's binary weighted graph for reloading a big graph fast.
//
// DIMACS text (docs/GRAPH_FORMAT.md): lines start with a one-letter type and
// their fields are separated by blanks; lines starting with 'c' are comments,
// anywhere; blank lines and Windows line ends are tolerated, and the last
// line needs no line end. Ids are 1..N in files, 0..N-1 in memory.
//   .gr   graph        p sp N M          then M lines  a U V W  (arc U -> V, weight W)
//   .co   coordinates  p aux sp co N     then N lines  v ID X Y (each id once, any order)
//   .ss   sources      p aux sp ss K     then K lines  s ID
//   .p2p  queries      p aux sp p2p K    then K lines  q S T
// The problem line is the first line that is not a comment, and comes once.
// Parallel arcs and self-loops are kept. Weights are 0..kMaxWeight (32-bit),
// coordinates any 64-bit integers. The count on the problem line must match
// the lines that follow, exactly.
//
// Every reader error is Error(input) "<source>:<line>: <what>": the line of
// the problem, the value, and what was expected, e.g.
//   road.gr:7: arc weight -3 is negative (shortest paths need weights >= 0)
// Numbers of any length are read exactly; one that does not fit is refused,
// never wrapped. A declared count costs memory only as far as the input could
// hold that many lines, so a corrupt problem line cannot exhaust memory.
//
// Binary weighted graph, all integers little-endian: exactly the CSR of
// WeightedGraph, so that loading is reading (a 58 M-arc road graph loads at
// disk speed instead of parsing 1.3 GB of text):
//   8 bytes           magic "ULIBCWG1"
//   8 bytes           vertex count N  (uint64, at most kMaxVertices)
//   8 bytes           arc count M     (uint64)
//   8 (N + 1) bytes   offsets (uint64): 0, non-decreasing, the last M; vertex
//                     v's arcs are offsets[v] .. offsets[v+1]-1
//   8 M bytes         arcs: (uint32 head, uint32 weight), each head below N
// The file's size must be exactly what the header declares; a seekable file
// is measured before anything is allocated.
#pragma once
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "graph/weighted_graph.hpp"

namespace ulibc::graph {

inline constexpr char kWeightedMagic[8] = {'U', 'L', 'I', 'B', 'C', 'W', 'G', '1'};

// ---- Graphs (.gr and binary) --------------------------------------------------------

// The arcs of a .gr text, 0-based, in the file's order; `source` names the
// input in messages.
ArcList read_dimacs_graph(std::istream& in, const std::string& source);
// A binary weighted graph; also checks the CSR's shape (WeightedGraph's constructor).
WeightedGraph read_binary_graph(std::istream& in, const std::string& source);
// Either format, told apart by the magic: a file starting with it (or with as
// much of it as the file holds) is binary. The file must be seekable; a pipe is
// read with the stream readers. Error(input) when it cannot be opened.
// before_building, when given, sees a text graph's counts before its CSR is
// allocated, to refuse what cannot fit: "p sp 2147483647 0" is a valid file
// whose offsets alone take 16 GiB. (A binary file's size bounds its arrays.)
using SizeCheck = std::function<void(std::int64_t vertices, std::int64_t arcs)>;
WeightedGraph read_weighted_graph(const std::string& path, const SizeCheck& before_building = {});

// The writers: Error(system) naming the path when it cannot be written whole.
// A comment, the problem line, then each vertex's arcs in CSR order, 1-based:
// read_dimacs_graph gives back arc_list(g).
void write_dimacs_graph(const WeightedGraph& g, const std::string& path);
void write_binary_graph(const WeightedGraph& g, const std::string& path);

// ---- Coordinates (.co) --------------------------------------------------------------

// `vertices`: the graph's vertex count, which the problem line must declare;
// a negative one takes whatever count the problem line declares.
Coordinates read_dimacs_coordinates(std::istream& in, const std::string& source, std::int64_t vertices);
Coordinates read_dimacs_coordinates(const std::string& path, std::int64_t vertices);
// Vertex by vertex. Error(input) before creating the file when x and y differ in length.
void write_dimacs_coordinates(const Coordinates& c, const std::string& path);

// ---- Problems (.ss, .p2p) -----------------------------------------------------------

// The sources, 0-based, in the file's order (repeats kept). Each id must be a
// vertex of a graph with `vertices` vertices (1..vertices in the file); a
// negative count checks only that ids fit 32 bits (1..kMaxVertices).
std::vector<Vertex> read_dimacs_sources(std::istream& in, const std::string& source, std::int64_t vertices);
std::vector<Vertex> read_dimacs_sources(const std::string& path, std::int64_t vertices);
// Error(input) before creating the file when an id is outside 0..kMaxVertices-1.
void write_dimacs_sources(const std::vector<Vertex>& sources, const std::string& path);

// A point-to-point query: the distance from source to target.
struct VertexPair {
  Vertex source = 0;
  Vertex target = 0;
  bool operator==(const VertexPair&) const = default;
};

// As read_dimacs_sources, for the pairs of a .p2p file.
std::vector<VertexPair> read_dimacs_pairs(std::istream& in, const std::string& source, std::int64_t vertices);
std::vector<VertexPair> read_dimacs_pairs(const std::string& path, std::int64_t vertices);
void write_dimacs_pairs(const std::vector<VertexPair>& pairs, const std::string& path);

}  // namespace ulibc::graph
