// json.hpp — the machine-readable form of what `ulibc topology` and
// `ulibc map` print, one place so that every subcommand spells fields alike.
#pragma once
#include <nlohmann/json.hpp>

#include "ulibc.hpp"
#include "ulibc/apic.hpp"

namespace ulibc::cli {

// {"fsroot", "live", "counts", "processors", "nodes", "packages", "caches", "notes", ...}
nlohmann::ordered_json to_json(const Topology& topo);
// Adds "apic_id" (null where unknown) to each of to_json(topo)'s processors and
// {"apic": {"available", "source", "absent_reason", "disagreements"}}.
void add_apic_ids(nlohmann::ordered_json& topology, const ApicTable& apic);

// {"policy", "threads":[{thread, proc, node, node_index, package, core_id, smt, ordcore}],
//  "nodes_used", "node_ids", "threads_per_node", "oversubscribed", "cores_per_node", ...}
nlohmann::ordered_json to_json(const Mapping& map);

}  // namespace ulibc::cli
