// The recorded device-region traces (bench/bufalloc/traces) and their parser: the parser
// accepts the format and rejects what would make a replay meaningless, and replaying each
// committed trace through bufalloc::Region the way the discrete-memory domain uses it (a region
// of the device's size at the device's base, every free followed by flush_cache()) puts every
// allocation where the driver put it, and refuses what the driver refused.
#include "bufalloc/region.hpp"
#include "trace_file.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

using bufalloc::Region;
using bufalloc::Status;
using bufalloc::bench::parse_recorded_trace;
using bufalloc::bench::RecordedOp;
using bufalloc::bench::RecordedTrace;

namespace {

std::optional<RecordedTrace> parse(const std::string& text, std::string* error = nullptr) {
    std::istringstream in(text);
    return parse_recorded_trace(in, error);
}

const std::string header = "# a trace\nregion 1048576 base 0x7f0000000000 granule 128\n";

} // namespace

TEST_CASE("a recorded trace parses into numbered allocations and frees", "[bufalloc][trace]") {
    auto trace = parse(header + "a 1000 0\n"
                                "a 5000 1024\n"
                                "f 0\n"
                                "x 2000000\n"
                                "a 4096 8192 4096\n"
                                "\n"
                                "f 2\n");
    REQUIRE(trace);
    CHECK(trace->comments == std::vector<std::string>{"a trace"});
    CHECK(trace->region_bytes == 1048576);
    CHECK(trace->base == 0x7f0000000000);
    CHECK(trace->granule == 128);
    REQUIRE(trace->ops.size() == 6);
    CHECK(trace->allocations == 3);
    CHECK(trace->peak_live_bytes == 9096); // 5000 + 4096 after the first free
    CHECK(trace->peak_live_count == 2);

    const RecordedOp& first = trace->ops[0];
    CHECK(first.kind == RecordedOp::Kind::allocate);
    CHECK(first.id == 0);
    CHECK(first.size == 1000);
    CHECK(first.offset == 0);
    CHECK(first.alignment == 128);

    CHECK(trace->ops[2].kind == RecordedOp::Kind::free);
    CHECK(trace->ops[2].id == 0);
    CHECK(trace->ops[2].size == 1000); // the freed allocation's size

    CHECK(trace->ops[3].kind == RecordedOp::Kind::refused);
    CHECK(trace->ops[3].size == 2000000);

    const RecordedOp& aligned = trace->ops[4];
    CHECK(aligned.id == 2);
    CHECK(aligned.alignment == 4096);
    CHECK(aligned.offset == 8192);
    CHECK(trace->ops[5].id == 2);
}

TEST_CASE("malformed traces are rejected with the line", "[bufalloc][trace]") {
    struct Case {
        std::string text;
        std::string line;
    };
    const Case cases[] = {
        {"a 100 0\n", "line 1"},                                        // before the region line
        {header + "f 0\n", "line 3"},                                   // nothing allocated
        {header + "a 100 0\nf 0\nf 0\n", "line 5"},                     // freed twice
        {header + "a 100 0 96\n", "line 3"},                            // not a power of two
        {header + "a 100 0 64\n", "line 3"},                            // below the granule
        {header + "a 100 64\n", "line 3"},                              // offset not aligned
        {header + "a 100 1048576\n", "line 3"},                         // outside the region
        {header + "a 2000 1047552\n", "line 3"},                        // passes the end
        {header + "a 0 0\n", "line 3"},                                 // size 0
        {header + "a 100\n", "line 3"},                                 // no offset
        {header + "a 100 0 128 7\n", "line 3"},                         // one number too many
        {header + "a 1x0 0\n", "line 3"},                               // not a number
        {header + "a -100 0\n", "line 3"},                              // negative
        {header + "m 100\n", "line 3"},                                 // unknown operation
        {header + "region 1048576 base 0x0 granule 128\n", "line 3"},   // a second region
        {"region 1048576 base 0x7f0000000040 granule 128\n", "line 1"}, // base not aligned
        {"region 0 base 0x0 granule 128\n", "line 1"},                  // empty
        {"# only comments\n", "no region line"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        std::string error;
        CHECK_FALSE(parse(c.text, &error));
        CHECK(error.rfind(c.line, 0) == 0);
    }
}

TEST_CASE("bufalloc replays every committed trace exactly as the device placed it",
          "[bufalloc][trace]") {
    std::vector<std::string> errors;
    std::vector<RecordedTrace> traces =
        bufalloc::bench::load_recorded_traces(BUFALLOC_TRACE_DIR, &errors);
    CHECK(errors.empty());
    REQUIRE(traces.size() >= 3);
    for (const RecordedTrace& trace : traces) {
        INFO(trace.name);
        CHECK(trace.allocations >= 100);
        Region region(trace.base, trace.region_bytes, trace.granule);
        std::vector<std::uint64_t> addresses(trace.allocations, 0);
        std::uint64_t reserved = 0;
        std::size_t misplaced = 0;
        std::size_t failed = 0;
        std::size_t refused_placed = 0;
        auto reserved_size = [&](std::uint64_t size) {
            return (size + trace.granule - 1) / trace.granule * trace.granule;
        };
        for (const RecordedOp& op : trace.ops) {
            if (op.kind == RecordedOp::Kind::allocate) {
                auto result = region.allocate(op.size, op.alignment);
                if (!result) {
                    ++failed;
                    continue;
                }
                addresses[op.id] = result.address;
                misplaced += result.address - trace.base != op.offset ? 1 : 0;
                reserved += reserved_size(op.size);
            } else if (op.kind == RecordedOp::Kind::free) {
                REQUIRE(region.free(addresses[op.id]) == Status::ok);
                region.flush_cache(); // as driver/memory/domain.cpp does
                reserved -= reserved_size(op.size);
            } else {
                auto result = region.allocate(op.size, op.alignment);
                refused_placed += result ? 1 : 0;
                CHECK(result.status != Status::invalid_alignment);
            }
        }
        CHECK(failed == 0);
        CHECK(misplaced == 0);
        CHECK(refused_placed == 0);
        CHECK(region.check_invariants());
        CHECK(region.stats().bytes_in_use == reserved);
    }
}
