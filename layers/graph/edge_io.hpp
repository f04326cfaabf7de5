// graph/edge_io.hpp — edge lists in files: SNAP-style text and ULIBC's binary.
//
// Text: one edge per line, "u v" separated by blanks or tabs (further columns,
// such as a weight, are ignored); empty lines and lines starting with '#' or
// '%' are comments. A comment "# Nodes: N ..." (SNAP's header) declares the
// vertex count; without one it is the largest id + 1.
//
// Binary (docs/GRAPH_FORMAT.md), all integers little-endian:
//   8 bytes  magic "ULIBCEL1"
//   8 bytes  vertex count   (uint64, at most kMaxVertices)
//   8 bytes  edge count     (uint64)
//   edge count x (uint32 u, uint32 v), each id below the vertex count
//
// Every reader error is Error(input) naming the source and the line (text) or
// the edge (binary) and what was wrong: a negative or non-numeric id, an id
// beyond the declared count, a truncated file, a bad magic.
#pragma once
#include <istream>
#include <string>

#include "graph/edge_list.hpp"

namespace ulibc::graph {

inline constexpr char kBinaryMagic[8] = {'U', 'L', 'I', 'B', 'C', 'E', 'L', '1'};

EdgeList read_text_edges(std::istream& in, const std::string& source);
EdgeList read_binary_edges(std::istream& in, const std::string& source);
// Either format, told apart by the magic. Error(input) when the file cannot be opened.
EdgeList read_edges(const std::string& path);

// Error(system) naming the path when it cannot be written whole.
void write_binary_edges(const EdgeList& edges, const std::string& path);
// "u v" lines after a "# Nodes: N Edges: M" header: what GAP's .el reader and SNAP tools read.
void write_text_edges(const EdgeList& edges, const std::string& path);

}  // namespace ulibc::graph
