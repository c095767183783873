// Eight threads share one context and, at random, allocate USM of all three
// types (random sizes and alignments), free it (clMemFreeINTEL or
// clMemBlockingFreeINTEL), query their own live allocations at random
// interior pointers (answers checked against each thread's model), and query
// pointers of other threads' allocations that may be freed meanwhile: those
// answers must come from an allocation that contained the pointer at some
// time (or be UNKNOWN, NULL, 0), never garbage. Allocations never overlap
// (tags at both ends stay intact), and at the end every allocation ever made
// is unknown to the context again.
#include "usm_test.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

using namespace cl_test;
using namespace usm_test;

namespace {

constexpr int thread_count = 8;
constexpr int operations_per_thread = 8000;
constexpr size_t max_live_per_thread = 150;
constexpr size_t max_size = 256 * 1024;

struct Record {
    uintptr_t base;
    size_t size;
    cl_unified_shared_memory_type_intel type;
    cl_device_id device;
    cl_mem_alloc_flags_intel flags;
    unsigned char tag;
};

// Every allocation made during the test, by base address (an address may
// be handed out again after a free).
class History {
public:
    void add(const Record& record) {
        std::lock_guard lock(mutex_);
        entries_.emplace(record.base, record);
    }

    // Whether some allocation made so far contained address and had the
    // answered value; the queried one may be seen by the driver just before
    // its thread records it here, so a miss is looked up again a bit later.
    template <class Match>
    bool explains(uintptr_t address, Match match) const {
        for (int attempt = 0; attempt < 50; ++attempt) {
            if (attempt > 0)
                std::this_thread::sleep_for(2ms);
            std::lock_guard lock(mutex_);
            auto it = entries_.lower_bound(address >= max_size ? address - max_size : 0);
            for (; it != entries_.end() && it->first <= address; ++it)
                if (address < it->first + it->second.size && match(it->second))
                    return true;
        }
        return false;
    }

    std::vector<Record> all() const {
        std::lock_guard lock(mutex_);
        std::vector<Record> records;
        for (const auto& [base, record] : entries_)
            records.push_back(record);
        return records;
    }

private:
    mutable std::mutex mutex_;
    std::multimap<uintptr_t, Record> entries_;
};

// A thread's live allocations, readable by the others.
struct Published {
    std::mutex mutex;
    std::vector<Record> live;

    void add(const Record& record) {
        std::lock_guard lock(mutex);
        live.push_back(record);
    }
    void remove(uintptr_t base) {
        std::lock_guard lock(mutex);
        auto it =
            std::find_if(live.begin(), live.end(), [&](const Record& r) { return r.base == base; });
        if (it != live.end())
            live.erase(it);
    }
    bool sample(std::mt19937_64& random, Record& out) {
        std::lock_guard lock(mutex);
        if (live.empty())
            return false;
        out = live[random() % live.size()];
        return true;
    }
};

// Problems a worker found (Catch2 assertions are for the main thread only).
struct Report {
    size_t problems = 0;
    std::vector<std::string> first;
    size_t allocations = 0, frees = 0, own_queries = 0, other_queries = 0, other_known = 0;
    // Queries of another thread's allocation whose three answers were not all
    // known or all unknown (it was freed between them): allowed, counted.
    size_t other_mixed = 0;

    void problem(const std::string& text) {
        if (problems++ < 10)
            first.push_back(text);
    }
};

template <class T>
cl_int query(const Usm& usm, cl_context context, uintptr_t address, cl_mem_info_intel param,
             T& value) {
    size_t size = 0;
    const cl_int status = usm.alloc_info(context, reinterpret_cast<const void*>(address), param,
                                         sizeof value, &value, &size);
    if (status == CL_SUCCESS && size != sizeof(T))
        return CL_INVALID_VALUE;
    return status;
}

std::string hex(uintptr_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << value;
    return out.str();
}

struct Shared {
    Usm usm;
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    History history;
    Published published[thread_count];
    std::atomic<int> started{0};
};

void worker(Shared& shared, int index, Report& report) {
    const Usm& usm = shared.usm;
    const cl_context context = shared.context;
    std::mt19937_64 random(1000 + index);
    std::vector<Record> own;

    shared.started.fetch_add(1);
    while (shared.started.load() < thread_count)
        std::this_thread::yield();

    for (int op = 0; op < operations_per_thread; ++op) {
        unsigned choice = random() % 100;
        if (own.empty())
            choice = 0;
        else if (own.size() >= max_live_per_thread && choice < 35)
            choice = 40; // a free instead

        if (choice < 35) { // allocate
            const unsigned kind = random() % 3;
            const unsigned size_class = random() % 100;
            const size_t size = size_class < 70   ? 1 + random() % 512
                                : size_class < 95 ? 513 + random() % 16000
                                                  : 16384 + random() % (max_size - 16384);
            const cl_uint alignment = (random() % 4 == 0) ? 0 : (1u << (random() % 8));
            cl_mem_alloc_flags_intel flags = 0;
            if (random() % 4 == 0)
                flags = CL_MEM_ALLOC_WRITE_COMBINED_INTEL;
            if (kind == 2 && random() % 3 == 0)
                flags |= (random() % 2) ? CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL
                                        : CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL;
            const cl_mem_properties_intel properties[] = {CL_MEM_ALLOC_FLAGS_INTEL, flags, 0};
            const cl_mem_properties_intel* list = flags ? properties : nullptr;
            const bool with_device = kind != 2 || random() % 2 == 0;
            cl_int error = CL_OUT_OF_RESOURCES;
            void* p = nullptr;
            Record record{};
            switch (kind) {
            case 0:
                p = usm.host_alloc(context, list, size, alignment, &error);
                record.type = CL_MEM_TYPE_HOST_INTEL;
                break;
            case 1:
                p = usm.device_alloc(context, shared.device, list, size, alignment, &error);
                record.type = CL_MEM_TYPE_DEVICE_INTEL;
                record.device = shared.device;
                break;
            default:
                p = usm.shared_alloc(context, with_device ? shared.device : nullptr, list, size,
                                     alignment, &error);
                record.type = CL_MEM_TYPE_SHARED_INTEL;
                record.device = with_device ? shared.device : nullptr;
                break;
            }
            if (error != CL_SUCCESS || p == nullptr) {
                report.problem("allocation of " + std::to_string(size) +
                               " bytes failed: " + error_name(error));
                continue;
            }
            record.base = reinterpret_cast<uintptr_t>(p);
            record.size = size;
            record.flags = flags;
            record.tag = static_cast<unsigned char>(random());
            if (record.base % (alignment ? alignment : 128) != 0)
                report.problem("allocation at " + hex(record.base) + " is not aligned to " +
                               std::to_string(alignment));
            if (record.type != CL_MEM_TYPE_DEVICE_INTEL) {
                static_cast<unsigned char*>(p)[0] = record.tag;
                static_cast<unsigned char*>(p)[size - 1] = record.tag;
            }
            shared.history.add(record);
            own.push_back(record);
            shared.published[index].add(record);
            ++report.allocations;
        } else if (choice < 60) { // free
            const size_t at = random() % own.size();
            const Record record = own[at];
            own[at] = own.back();
            own.pop_back();
            shared.published[index].remove(record.base);
            if (record.type != CL_MEM_TYPE_DEVICE_INTEL) {
                const auto* bytes = reinterpret_cast<const unsigned char*>(record.base);
                if (bytes[0] != record.tag || bytes[record.size - 1] != record.tag)
                    report.problem("the tags of the allocation at " + hex(record.base) +
                                   " changed: another allocation overlaps it");
            }
            void* p = reinterpret_cast<void*>(record.base);
            const cl_int status =
                (random() % 2) ? usm.blocking_free(context, p) : usm.free(context, p);
            if (status != CL_SUCCESS)
                report.problem("free of " + hex(record.base) + ": " + error_name(status));
            ++report.frees;
        } else if (choice < 90) { // query an own allocation
            const Record& record = own[random() % own.size()];
            const unsigned where = random() % 4;
            const size_t offset = where == 0   ? 0
                                  : where == 1 ? record.size - 1
                                               : random() % record.size;
            const uintptr_t address = record.base + offset;
            cl_unified_shared_memory_type_intel type = 0;
            void* base = nullptr;
            size_t size = 0;
            cl_device_id device = nullptr;
            cl_mem_alloc_flags_intel flags = ~cl_mem_alloc_flags_intel{0};
            const cl_int statuses[] = {
                query(usm, context, address, CL_MEM_ALLOC_TYPE_INTEL, type),
                query(usm, context, address, CL_MEM_ALLOC_BASE_PTR_INTEL, base),
                query(usm, context, address, CL_MEM_ALLOC_SIZE_INTEL, size),
                query(usm, context, address, CL_MEM_ALLOC_DEVICE_INTEL, device),
                query(usm, context, address, CL_MEM_ALLOC_FLAGS_INTEL, flags)};
            for (cl_int status : statuses)
                if (status != CL_SUCCESS)
                    report.problem("query of " + hex(address) + ": " + error_name(status));
            if (type != record.type || reinterpret_cast<uintptr_t>(base) != record.base ||
                size != record.size || device != record.device || flags != record.flags)
                report.problem("own allocation at " + hex(record.base) + " (size " +
                               std::to_string(record.size) + ") queried at offset " +
                               std::to_string(offset) + ": type " + hex(type) + ", base " +
                               hex(reinterpret_cast<uintptr_t>(base)) + ", size " +
                               std::to_string(size) + ", flags " + hex(flags));
            ++report.own_queries;
        } else { // query an allocation of another thread, which it may free meanwhile
            const int other =
                static_cast<int>((index + 1 + random() % (thread_count - 1)) % thread_count);
            Record record{};
            if (!shared.published[other].sample(random, record))
                continue;
            // Asked again and again, so that the owner may free it meanwhile.
            for (int repeat = 0; repeat < 8; ++repeat) {
                const uintptr_t address = record.base + random() % record.size;
                cl_unified_shared_memory_type_intel type = 0;
                void* base = nullptr;
                size_t size = 0;
                const cl_int statuses[] = {
                    query(usm, context, address, CL_MEM_ALLOC_TYPE_INTEL, type),
                    query(usm, context, address, CL_MEM_ALLOC_BASE_PTR_INTEL, base),
                    query(usm, context, address, CL_MEM_ALLOC_SIZE_INTEL, size)};
                for (cl_int status : statuses)
                    if (status != CL_SUCCESS)
                        report.problem("query of " + hex(address) + ": " + error_name(status));
                const uintptr_t base_address = reinterpret_cast<uintptr_t>(base);
                if (type != CL_MEM_TYPE_UNKNOWN_INTEL &&
                    !shared.history.explains(address,
                                             [&](const Record& r) { return r.type == type; }))
                    report.problem("type " + hex(type) + " for " + hex(address) +
                                   " is no allocation's");
                if (base != nullptr && !shared.history.explains(address, [&](const Record& r) {
                        return r.base == base_address;
                    }))
                    report.problem("base " + hex(base_address) + " for " + hex(address) +
                                   " is no allocation's");
                if (size != 0 && !shared.history.explains(
                                     address, [&](const Record& r) { return r.size == size; }))
                    report.problem("size " + std::to_string(size) + " for " + hex(address) +
                                   " is no allocation's");
                if ((type == CL_MEM_TYPE_UNKNOWN_INTEL) != (base == nullptr) ||
                    (base == nullptr) != (size == 0))
                    ++report.other_mixed;
                if (type != CL_MEM_TYPE_UNKNOWN_INTEL)
                    ++report.other_known;
                ++report.other_queries;
            }
        }
    }
}

} // namespace

TEST_CASE("eight threads allocate, free and query USM in one context", "[stress]") {
    Shared shared;
    shared.usm = load_usm(platform());
    shared.device = device();
    ContextPtr context = make_context({shared.device});
    shared.context = context.get();

    Report reports[thread_count];
    std::vector<std::thread> threads;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < thread_count; ++i)
        threads.emplace_back(worker, std::ref(shared), i, std::ref(reports[i]));
    for (std::thread& thread : threads)
        thread.join();
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    size_t allocations = 0, frees = 0, own_queries = 0, other_queries = 0, other_known = 0,
           other_mixed = 0;
    for (int i = 0; i < thread_count; ++i) {
        const Report& report = reports[i];
        INFO("thread " << i);
        for (const std::string& text : report.first)
            UNSCOPED_INFO(text);
        CHECK(report.problems == 0);
        allocations += report.allocations;
        frees += report.frees;
        own_queries += report.own_queries;
        other_queries += report.other_queries;
        other_known += report.other_known;
        other_mixed += report.other_mixed;
    }
    {
        INFO(allocations << " allocations, " << frees << " frees, " << own_queries
                         << " own queries, " << other_queries << " queries of other threads' ("
                         << other_known << " known) in " << seconds << " s");
        CHECK(allocations > thread_count * operations_per_thread / 4);
        CHECK(frees > thread_count * operations_per_thread / 8);
        CHECK(own_queries > thread_count * operations_per_thread / 8);
        CHECK(other_queries > thread_count * operations_per_thread / 50);
    }

    // What is still live answers for itself; then it is freed.
    size_t wrong = 0;
    for (Published& published : shared.published)
        for (const Record& record : published.live) {
            cl_unified_shared_memory_type_intel type = 0;
            void* base = nullptr;
            size_t size = 0;
            const uintptr_t last = record.base + record.size - 1;
            REQUIRE_OK(query(shared.usm, shared.context, last, CL_MEM_ALLOC_TYPE_INTEL, type));
            REQUIRE_OK(query(shared.usm, shared.context, last, CL_MEM_ALLOC_BASE_PTR_INTEL, base));
            REQUIRE_OK(query(shared.usm, shared.context, last, CL_MEM_ALLOC_SIZE_INTEL, size));
            if (type != record.type || reinterpret_cast<uintptr_t>(base) != record.base ||
                size != record.size)
                ++wrong;
            CHECK_OK(shared.usm.free(shared.context, reinterpret_cast<void*>(record.base)));
        }
    CHECK(wrong == 0);

    // Nothing is live any more: every allocation ever made is unknown.
    size_t still_known = 0;
    for (const Record& record : shared.history.all()) {
        cl_unified_shared_memory_type_intel type = 0;
        REQUIRE_OK(query(shared.usm, shared.context, record.base, CL_MEM_ALLOC_TYPE_INTEL, type));
        if (type != CL_MEM_TYPE_UNKNOWN_INTEL)
            ++still_known;
    }
    CHECK(still_known == 0);
}
