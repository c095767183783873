// Parser of recorded device-region allocation traces.
#include "trace_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace bufalloc::bench {

namespace {

bool power_of_two(std::uint64_t value) {
    return value != 0 && (value & (value - 1)) == 0;
}

// Reads the remaining words of a line as unsigned integers (decimal, or hex after "0x"); false
// when one is not a number or there are more or fewer than [least, most].
bool read_numbers(std::istringstream& words, std::vector<std::uint64_t>& numbers, std::size_t least,
                  std::size_t most) {
    numbers.clear();
    std::string word;
    while (words >> word) {
        int base = word.rfind("0x", 0) == 0 ? 16 : 10;
        std::size_t used = 0;
        try {
            if (word.front() == '-') {
                return false;
            }
            numbers.push_back(std::stoull(word, &used, base));
        } catch (const std::exception&) {
            return false;
        }
        if (used != word.size()) {
            return false;
        }
    }
    return numbers.size() >= least && numbers.size() <= most;
}

class Parser {
public:
    std::optional<RecordedTrace> parse(std::istream& in, std::string* error) {
        std::string line;
        while (std::getline(in, line)) {
            ++line_number_;
            if (!parse_line(line)) {
                if (error) {
                    *error = "line " + std::to_string(line_number_) + ": " + why_;
                }
                return std::nullopt;
            }
        }
        if (trace_.region_bytes == 0) {
            if (error) {
                *error = "no region line";
            }
            return std::nullopt;
        }
        return std::move(trace_);
    }

private:
    bool fail(std::string why) {
        why_ = std::move(why);
        return false;
    }

    bool parse_line(const std::string& line) {
        if (line.empty()) {
            return true;
        }
        if (line.front() == '#') {
            std::size_t start = line.find_first_not_of("# ");
            trace_.comments.push_back(start == std::string::npos ? "" : line.substr(start));
            return true;
        }
        std::istringstream words(line);
        std::string kind;
        words >> kind;
        if (kind == "region") {
            return parse_region(words);
        }
        if (trace_.region_bytes == 0) {
            return fail("an operation before the region line");
        }
        if (kind == "a" || kind == "x") {
            return parse_request(words, kind == "a");
        }
        if (kind == "f") {
            return parse_free(words);
        }
        return fail("unknown operation '" + kind + "'");
    }

    bool parse_region(std::istringstream& words) {
        std::string bytes;
        std::string base_word;
        std::string base;
        std::string granule_word;
        std::string granule;
        std::string extra;
        words >> bytes >> base_word >> base >> granule_word >> granule;
        std::istringstream numbers_text(bytes + ' ' + base + ' ' + granule);
        if (trace_.region_bytes != 0 || base_word != "base" || granule_word != "granule" ||
            (words >> extra) || !read_numbers(numbers_text, numbers_, 3, 3)) {
            return fail("expected one 'region <bytes> base <address> granule <bytes>'");
        }
        if (numbers_[0] == 0 || !power_of_two(numbers_[2]) || numbers_[1] % numbers_[2] != 0) {
            return fail("empty region, or a granule that is not a power of two dividing the base");
        }
        trace_.region_bytes = numbers_[0];
        trace_.base = numbers_[1];
        trace_.granule = numbers_[2];
        return true;
    }

    bool parse_request(std::istringstream& words, bool placed) {
        std::size_t fixed = placed ? 2 : 1;
        if (!read_numbers(words, numbers_, fixed, fixed + 1)) {
            return fail(placed ? "expected 'a <size> <offset> [<alignment>]'"
                               : "expected 'x <size> [<alignment>]'");
        }
        RecordedOp op;
        op.kind = placed ? RecordedOp::Kind::allocate : RecordedOp::Kind::refused;
        op.size = numbers_[0];
        op.alignment = numbers_.size() > fixed ? numbers_[fixed] : trace_.granule;
        if (op.size == 0 || !power_of_two(op.alignment) || op.alignment < trace_.granule) {
            return fail("a size of 0, or an alignment that is not a power of two >= the granule");
        }
        if (placed) {
            op.offset = numbers_[1];
            if (op.offset % op.alignment != 0 || op.offset >= trace_.region_bytes ||
                op.size > trace_.region_bytes - op.offset) {
                return fail("an allocation outside the region or not at its alignment");
            }
            op.id = trace_.allocations++;
            sizes_.push_back(op.size);
            live_.push_back(true);
            live_bytes_ += op.size;
            ++live_count_;
            trace_.peak_live_bytes = std::max(trace_.peak_live_bytes, live_bytes_);
            trace_.peak_live_count = std::max(trace_.peak_live_count, live_count_);
        }
        trace_.ops.push_back(op);
        return true;
    }

    bool parse_free(std::istringstream& words) {
        if (!read_numbers(words, numbers_, 1, 1)) {
            return fail("expected 'f <allocation number>'");
        }
        if (numbers_[0] >= trace_.allocations || !live_[numbers_[0]]) {
            return fail("a free of an allocation that is not live");
        }
        auto id = static_cast<std::uint32_t>(numbers_[0]);
        live_[id] = false;
        live_bytes_ -= sizes_[id];
        --live_count_;
        trace_.ops.push_back({RecordedOp::Kind::free, id, sizes_[id], 0, 0});
        return true;
    }

    RecordedTrace trace_;
    std::vector<std::uint64_t> numbers_;
    std::vector<std::uint64_t> sizes_; // per allocation
    std::vector<bool> live_;           // per allocation
    std::uint64_t live_bytes_ = 0;
    std::uint32_t live_count_ = 0;
    std::size_t line_number_ = 0;
    std::string why_;
};

} // namespace

std::optional<RecordedTrace> parse_recorded_trace(std::istream& in, std::string* error) {
    return Parser().parse(in, error);
}

std::vector<RecordedTrace> load_recorded_traces(const std::filesystem::path& folder,
                                                std::vector<std::string>* errors) {
    std::vector<std::filesystem::path> files;
    std::error_code failure;
    for (const auto& entry : std::filesystem::directory_iterator(folder, failure)) {
        if (entry.path().extension() == ".trace") {
            files.push_back(entry.path());
        }
    }
    if (failure && errors) {
        errors->push_back(folder.string() + ": " + failure.message());
    }
    std::sort(files.begin(), files.end());
    std::vector<RecordedTrace> traces;
    for (const auto& file : files) {
        std::ifstream in(file);
        std::string error;
        std::optional<RecordedTrace> trace = parse_recorded_trace(in, &error);
        if (!trace) {
            if (errors) {
                errors->push_back(file.string() + ": " + error);
            }
            continue;
        }
        trace->name = file.stem().string();
        traces.push_back(std::move(*trace));
    }
    return traces;
}

} // namespace bufalloc::bench
