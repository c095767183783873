// Allocation traces recorded on a discrete-memory device's region (bench/bufalloc/traces/, made
// by record_trace.py from the driver's memory debug log), and their parser. The format:
//
//   # comment lines
//   region <bytes> base <hex address> granule <bytes>
//   a <size> <offset> [<alignment>]   allocation 0, 1, ... in order; alignment default: granule
//   f <allocation number>             a free
//   x <size> [<alignment>]            a request the device could not place
//
// Offsets are where the driver's bufalloc::Region placed each allocation, so a replay can check
// that it places them the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace bufalloc::bench {

struct RecordedOp {
    enum class Kind { allocate, free, refused };
    Kind kind = Kind::allocate;
    std::uint32_t id = 0;        // allocation number (allocate, free)
    std::uint64_t size = 0;      // requested bytes (allocate, refused; free: the allocation's)
    std::uint64_t alignment = 0; // allocate, refused
    std::uint64_t offset = 0;    // allocate: where the device placed it
};

struct RecordedTrace {
    std::string name;                  // the file's stem
    std::vector<std::string> comments; // header lines, without "# "
    std::uint64_t region_bytes = 0;
    std::uint64_t base = 0;
    std::uint64_t granule = 0;
    std::vector<RecordedOp> ops;
    std::uint32_t allocations = 0;
    std::uint64_t peak_live_bytes = 0; // requested bytes
    std::uint32_t peak_live_count = 0;
};

// Parses a trace; on a malformed line returns nullopt and sets *error to "line N: why". Every
// free must name a live allocation; sizes are positive, alignments powers of two at least the
// granule.
[[nodiscard]] std::optional<RecordedTrace> parse_recorded_trace(std::istream& in,
                                                                std::string* error);

// The traces (*.trace) of a folder, sorted by name; a file that does not parse is reported in
// *errors and skipped.
[[nodiscard]] std::vector<RecordedTrace> load_recorded_traces(const std::filesystem::path& folder,
                                                              std::vector<std::string>* errors);

} // namespace bufalloc::bench
