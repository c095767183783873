#include "runtime/launcher.hpp"

#include "runtime/printf_format.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

namespace usmcl::runtime {
namespace {

// The memory domain of the kernel the calling thread runs (initial-exec:
// read from a signal handler, it must not allocate).
[[gnu::tls_model("initial-exec")]] thread_local std::uint32_t running_domain = 0;

// Sets running_domain for the groups of one chunk.
class DomainScope {
public:
    explicit DomainScope(std::uint32_t domain) : previous_(running_domain) {
        running_domain = domain;
    }
    ~DomainScope() { running_domain = previous_; }
    DomainScope(const DomainScope&) = delete;
    DomainScope& operator=(const DomainScope&) = delete;

private:
    std::uint32_t previous_;
};

// The local memory arena of the calling thread, grown on demand.
char* local_arena(std::size_t bytes) {
    struct Arena {
        std::unique_ptr<char, decltype(&std::free)> memory{nullptr, &std::free};
        std::size_t size = 0;
    };
    [[gnu::tls_model("initial-exec")]] thread_local Arena arena;
    if (bytes > arena.size) {
        const std::size_t rounded = (bytes + 4095) / 4096 * 4096;
        arena.memory.reset(static_cast<char*>(std::aligned_alloc(128, rounded)));
        arena.size = arena.memory ? rounded : 0;
    }
    return arena.memory.get();
}

// The calling thread's stack: where the private memory of the work-items
// it runs lives (to_private, get_fence).
struct StackRange {
    char* begin = nullptr;
    char* end = nullptr;
};

StackRange thread_stack() {
    thread_local StackRange range = [] {
        StackRange r;
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0)
            return r;
        void* base = nullptr;
        std::size_t size = 0;
        if (pthread_attr_getstack(&attr, &base, &size) == 0) {
            r.begin = static_cast<char*>(base);
            r.end = r.begin + size;
        }
        pthread_attr_destroy(&attr);
        return r;
    }();
    return range;
}

// The printf buffer of one launch: the calling thread's, reused from launch
// to launch (its pages are touched only by what kernels print), or a buffer
// of its own when that one is in use by a launch further up this thread's
// stack.
class PrintfScope {
public:
    PrintfScope() {
        thread_local Storage mine;
        storage_ = mine.busy ? &own_ : &mine;
        storage_->busy = true;
        if (!storage_->data) {
            storage_->data.reset(new (std::nothrow) char[printf_buffer_size]);
        }
        buffer_.Offset = 0;
        buffer_.Capacity = storage_->data ? printf_buffer_size : 0;
        buffer_.Data = storage_->data.get();
    }
    ~PrintfScope() { storage_->busy = false; }
    PrintfScope(const PrintfScope&) = delete;
    PrintfScope& operator=(const PrintfScope&) = delete;

    void* buffer() { return storage_->data ? &buffer_ : nullptr; }

    // Writes what the launch printed to stdout, in one piece.
    void flush() {
        const std::uint64_t used = buffer_.Offset & ~kc::PrintfFull;
        if (used == 0)
            return;
        std::string text;
        format_printf_records(text, buffer_.Data, used);
        if (!text.empty())
            std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
    }

private:
    struct Storage {
        std::unique_ptr<char[]> data;
        bool busy = false;
    };
    Storage own_;
    Storage* storage_;
    kc::PrintfBuffer buffer_{};
};

} // namespace

std::uint32_t kernel_memory_domain() {
    return running_domain;
}

void run_ndrange(ThreadPool& pool, kc::WorkGroupFunction function, const char* args,
                 const NDRange& range, std::size_t local_memory_bytes,
                 std::uint32_t memory_domain) {
    kc::LaunchContext base{};
    base.WorkDim = range.dimensions;
    std::uint64_t groups_total = 1;
    for (int d = 0; d < 3; ++d) {
        base.GlobalSize[d] = range.global_size[d];
        base.GlobalOffset[d] = range.global_offset[d];
        base.EnqueuedLocalSize[d] = range.local_size[d];
        base.NumGroups[d] = (range.global_size[d] + range.local_size[d] - 1) / range.local_size[d];
        groups_total *= base.NumGroups[d];
    }
    if (groups_total == 0)
        return;
    PrintfScope printf_scope;
    base.Printf = printf_scope.buffer();
    base.LocalMemorySize = local_memory_bytes;
    // Several chunks per worker, so a slow group does not leave others idle,
    // but few enough that taking one costs little against running it.
    const std::uint64_t workers = std::max(1u, pool.size());
    const std::uint64_t chunks = std::min<std::uint64_t>(groups_total, workers * 8);
    const std::uint64_t per_chunk = (groups_total + chunks - 1) / chunks;
    const std::uint64_t chunk_count = (groups_total + per_chunk - 1) / per_chunk;

    auto run_chunk = [&](std::size_t chunk) {
        const DomainScope domain_scope(memory_domain);
        kc::LaunchContext context = base;
        context.LocalMemory = local_arena(std::max<std::size_t>(local_memory_bytes, 1));
        const StackRange stack = thread_stack();
        context.PrivateBegin = stack.begin;
        context.PrivateEnd = stack.end;
        const std::uint64_t first = chunk * per_chunk;
        const std::uint64_t last = std::min(groups_total, first + per_chunk);
        for (std::uint64_t group = first; group < last; ++group) {
            std::uint64_t rest = group;
            for (int d = 0; d < 3; ++d) {
                context.GroupId[d] = rest % base.NumGroups[d];
                rest /= base.NumGroups[d];
                const std::uint64_t start = context.GroupId[d] * base.EnqueuedLocalSize[d];
                context.LocalSize[d] =
                    std::min(base.EnqueuedLocalSize[d], base.GlobalSize[d] - start);
            }
            function(args, &context);
        }
    };
    if (chunk_count == 1)
        run_chunk(0);
    else
        pool.parallel_for(chunk_count, run_chunk);
    printf_scope.flush();
}

} // namespace usmcl::runtime
