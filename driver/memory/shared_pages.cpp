#include "memory/shared_pages.hpp"

#include "memory/domain.hpp"
#include "support/clock.hpp"
#include "support/log.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <thread>

namespace usmcl::memory {
namespace {

std::size_t page_size() {
    static const auto size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

// A lock the fault handler may take: no system call, no allocation. It is
// never held while its holder touches an allocation's own addresses, so a
// thread that faults never waits for itself.
class SpinLock {
public:
    void lock() {
        while (locked_.exchange(true, std::memory_order_acquire))
            while (locked_.load(std::memory_order_relaxed))
                sched_yield();
    }
    void unlock() { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
};

// A faulting thread's request to move the block that holds address, on its
// stack while it waits.
struct MoveRequest {
    SharedPages* pages = nullptr;
    const std::byte* address = nullptr;
    DomainId side = 0;
    SharedPages::Moved moved;
    std::atomic<std::uint32_t> done{0};
};

// Every SharedPages of the process, sorted by base, how many kernels of
// each domain run, and the requests waiting for the mover.
struct Registry {
    SpinLock lock;
    std::vector<SharedPages*> allocations;
    std::vector<unsigned> running_kernels; // by domain id
    std::atomic<std::size_t> count{0};
    std::atomic<SharedPages::ThreadDomain> thread_domain{nullptr};
    struct sigaction replaced {};
    std::array<MoveRequest*, 256> pending{};
    std::size_t pending_count = 0;
    std::atomic<std::uint32_t> mover_wake{0};
};

Registry& registry() {
    static Registry* const instance = new Registry; // never destroyed: faults may come late
    return *instance;
}

class RegistryLock {
public:
    RegistryLock() : registry_(registry()) { registry_.lock.lock(); }
    ~RegistryLock() { registry_.lock.unlock(); }
    RegistryLock(const RegistryLock&) = delete;
    RegistryLock& operator=(const RegistryLock&) = delete;

private:
    Registry& registry_;
};

SharedPages* find_locked(const void* address) {
    const auto& list = registry().allocations;
    auto it = std::upper_bound(list.begin(), list.end(), address,
                               [](const void* a, const SharedPages* pages) {
                                   return static_cast<const std::byte*>(a) < pages->base();
                               });
    if (it == list.begin())
        return nullptr;
    SharedPages* pages = *(it - 1);
    // Whole pages: code may read past an allocation's end inside its last
    // page (a vectorized strlen).
    const auto* p = static_cast<const std::byte*>(address);
    return static_cast<std::size_t>(p - pages->base()) < pages->mapped_size() ? pages : nullptr;
}

// A range of a device's region that held a block goes back: its memory
// becomes private memory of the region again (the shared pages there go,
// whatever still maps them elsewhere), free for the next instance.
void give_back(const Domain& device, std::byte* range, std::size_t length) {
    (void)mmap(range, length, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    device.release(range, length);
}

// Maps every page of [address, address + length) writable at once: a
// block's first accesses after a move then take no fault each. A hint
// (kernels before 5.14 refuse it; the pages then come on first touch).
void populate(std::byte* address, std::size_t length) {
#ifdef MADV_POPULATE_WRITE
    (void)madvise(address, length, MADV_POPULATE_WRITE);
#else
    (void)address;
    (void)length;
#endif
}

void fault_handler(int signal, siginfo_t* info, void* context);

// Puts fault_handler in place unless it is; what it replaces gets the
// faults that are not ours. Under the registry's lock.
void ensure_handler_locked() {
    struct sigaction current {};
    if (sigaction(SIGSEGV, nullptr, &current) != 0)
        return;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == fault_handler)
        return;
    struct sigaction ours {};
    ours.sa_sigaction = fault_handler;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    struct sigaction previous {};
    if (sigaction(SIGSEGV, &ours, &previous) == 0)
        registry().replaced = previous;
}

long futex(std::atomic<std::uint32_t>& word, int operation, std::uint32_t value) {
    static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
    return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), operation, value, nullptr,
                   nullptr, 0);
}

// The mover: the thread that moves blocks for faulting threads. A fault
// handler must not allocate (the region's allocator does), so it only
// queues its request and waits on a futex (docs/memory-model.md).
void mover_loop() {
    Registry& r = registry();
    std::vector<MoveRequest*> taken;
    for (;;) {
        r.lock.lock();
        while (r.pending_count == 0) {
            const std::uint32_t seen = r.mover_wake.load(std::memory_order_acquire);
            r.lock.unlock();
            futex(r.mover_wake, FUTEX_WAIT_PRIVATE, seen);
            r.lock.lock();
        }
        taken.assign(r.pending.begin(), r.pending.begin() + r.pending_count);
        r.pending_count = 0;
        for (MoveRequest* request : taken)
            // The allocation may be gone (freed while a thread used it).
            if (SharedPages* pages = find_locked(request->address); pages == request->pages)
                pages->on_fault(request->address, request->side, request->moved);
        r.lock.unlock();
        for (MoveRequest* request : taken) {
            request->done.store(1, std::memory_order_release);
            futex(request->done, FUTEX_WAKE_PRIVATE, 1);
        }
    }
}

// Starts the mover once. Not from a signal handler.
void start_mover() {
    static const bool started = [] {
        std::thread(mover_loop).detach();
        return true;
    }();
    (void)started;
}

// Resolves a fault on an address of a shared allocation; false for any
// other address. Async-signal-safe: atomics, the spin lock, system calls.
bool resolve_fault(const void* address) {
    Registry& r = registry();
    const SharedPages::ThreadDomain thread_domain = r.thread_domain.load(std::memory_order_acquire);
    const DomainId side = thread_domain ? thread_domain() : 0;
    const std::uint64_t start = support::monotonic_ns();
    MoveRequest request;
    request.address = static_cast<const std::byte*>(address);
    request.side = side;
    for (;;) {
        RegistryLock lock;
        request.pages = find_locked(address);
        if (!request.pages)
            return false;
        if (request.pages->resolve_in_place(request.address, side))
            return true;
        if (r.pending_count < r.pending.size()) {
            r.pending[r.pending_count++] = &request;
            break;
        }
        // Every slot taken (more faulting threads than slots): again.
    }
    r.mover_wake.fetch_add(1, std::memory_order_release);
    futex(r.mover_wake, FUTEX_WAKE_PRIVATE, 1);
    while (request.done.load(std::memory_order_acquire) == 0)
        futex(request.done, FUTEX_WAIT_PRIVATE, 0);
    if (request.moved.to_device)
        hold_to_cost_model(request.pages->host(), request.pages->device(), request.moved.to_device,
                           start);
    if (request.moved.to_host)
        hold_to_cost_model(request.pages->device(), request.pages->host(), request.moved.to_host,
                           start);
    return true;
}

void fault_handler(int signal, siginfo_t* info, void* context) {
    if (registry().count.load(std::memory_order_acquire) != 0 && resolve_fault(info->si_addr))
        return;
    // Not ours: what the handler we replaced would have done.
    const struct sigaction& replaced = registry().replaced;
    if ((replaced.sa_flags & SA_SIGINFO) && replaced.sa_sigaction) {
        replaced.sa_sigaction(signal, info, context);
        return;
    }
    if (replaced.sa_handler != SIG_DFL && replaced.sa_handler != SIG_IGN) {
        replaced.sa_handler(signal);
        return;
    }
    // The default action: returning faults again, now without us.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGSEGV, &fallback, nullptr);
}

} // namespace

SharedPages::SharedPages(const Domain& host, const Domain& device, std::byte* base,
                         std::byte* shadow, std::size_t size, std::size_t mapped)
    : host_(host), device_(device), base_(base), shadow_(shadow), size_(size), mapped_(mapped),
      blocks_((mapped + shared_block_bytes - 1) / shared_block_bytes) {}

std::unique_ptr<SharedPages> SharedPages::create(const Domain& host, const Domain& device,
                                                 std::size_t size, ThreadDomain thread_domain) {
    const std::size_t page = page_size();
    const std::size_t mapped = (size + page - 1) / page * page;
    void* shadow = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (shadow == MAP_FAILED)
        return nullptr;
    // A second mapping of the same pages (old size 0: a shared mapping is
    // duplicated, not moved).
    void* base = mremap(shadow, 0, mapped, MREMAP_MAYMOVE);
    if (base == MAP_FAILED) {
        munmap(shadow, mapped);
        return nullptr;
    }
    std::unique_ptr<SharedPages> pages(
        new (std::nothrow) SharedPages(host, device, static_cast<std::byte*>(base),
                                       static_cast<std::byte*>(shadow), size, mapped));
    if (!pages) {
        munmap(base, mapped);
        munmap(shadow, mapped);
        return nullptr;
    }
    Registry& r = registry();
    r.thread_domain.store(thread_domain, std::memory_order_release);
    start_mover();
    RegistryLock lock;
    ensure_handler_locked();
    auto& list = r.allocations;
    list.insert(std::upper_bound(list.begin(), list.end(), pages.get(),
                                 [](const SharedPages* a, const SharedPages* b) {
                                     return a->base() < b->base();
                                 }),
                pages.get());
    r.count.fetch_add(1, std::memory_order_release);
    return pages;
}

SharedPages::~SharedPages() {
    {
        Registry& r = registry();
        RegistryLock lock;
        std::erase(r.allocations, this);
        r.count.fetch_sub(1, std::memory_order_release);
    }
    munmap(base_, mapped_);
    munmap(shadow_, mapped_);
    for (std::size_t i = 0; i < blocks_.size(); ++i)
        if (std::byte* range = blocks_[i].device) {
            give_back(device_, range, block_length(i));
        }
}

DomainId SharedPages::device_domain() const {
    return device_.id();
}

std::size_t SharedPages::block_length(std::size_t index) const {
    return std::min(shared_block_bytes, mapped_ - index * shared_block_bytes);
}

void SharedPages::protect(std::size_t first, std::size_t count, bool accessible) {
    if (count == 0)
        return;
    const std::size_t offset = first * shared_block_bytes;
    const std::size_t length = std::min(count * shared_block_bytes, mapped_ - offset);
    mprotect(base_ + offset, length, accessible ? PROT_READ | PROT_WRITE : PROT_NONE);
    for (std::size_t i = first; i < first + count; ++i)
        blocks_[i].accessible = accessible;
}

bool SharedPages::move(std::size_t index, bool to_device, Moved& moved) {
    Block& block = blocks_[index];
    const std::size_t offset = index * shared_block_bytes;
    const std::size_t length = block_length(index);
    std::byte* at = base_ + offset;
    if (to_device) {
        std::byte* range = device_.allocate_aligned(length, page_size());
        if (!range)
            return false;
        // The region's range becomes memory a second mapping can share,
        // its pages there at once (one call, not a fault per page).
        if (mmap(range, length, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE, -1, 0) == MAP_FAILED) {
            device_.release(range, length);
            return false;
        }
        std::memcpy(range, shadow_ + offset, length);
        if (mremap(range, 0, length, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
            give_back(device_, range, length);
            return false;
        }
        madvise(shadow_ + offset, length, MADV_REMOVE); // the host's copy is gone
        populate(at, length);
        block.device = range;
        Domain::count_copy(host_, device_, length);
        moved.to_device += length;
        bytes_to_device_.fetch_add(length, std::memory_order_relaxed);
        blocks_to_device_.fetch_add(1, std::memory_order_relaxed);
        resident_bytes_.fetch_add(length, std::memory_order_relaxed);
    } else {
        populate(shadow_ + offset, length);
        std::memcpy(shadow_ + offset, block.device, length);
        if (mremap(shadow_ + offset, 0, length, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED)
            return false; // the block stays in the region, still mapped at its address
        populate(at, length);
        give_back(device_, block.device, length);
        block.device = nullptr;
        Domain::count_copy(device_, host_, length);
        moved.to_host += length;
        bytes_to_host_.fetch_add(length, std::memory_order_relaxed);
        blocks_to_host_.fetch_add(1, std::memory_order_relaxed);
        resident_bytes_.fetch_sub(length, std::memory_order_relaxed);
    }
    // The new mapping has the protection of the one it duplicates.
    block.accessible = true;
    return true;
}

SharedPages::Traffic SharedPages::traffic() const {
    Traffic t;
    t.bytes_to_device = bytes_to_device_.load(std::memory_order_relaxed);
    t.bytes_to_host = bytes_to_host_.load(std::memory_order_relaxed);
    t.blocks_to_device = blocks_to_device_.load(std::memory_order_relaxed);
    t.blocks_to_host = blocks_to_host_.load(std::memory_order_relaxed);
    t.resident_bytes = resident_bytes_.load(std::memory_order_relaxed);
    return t;
}

bool SharedPages::resolve_in_place(const std::byte* address, DomainId side) {
    const std::size_t index = static_cast<std::size_t>(address - base_) / shared_block_bytes;
    Block& block = blocks_[index];
    if (block.accessible)
        return true; // another thread resolved it meanwhile
    if ((block.device != nullptr) != (side == device_.id()))
        return false;
    protect(index, 1, true);
    return true;
}

void SharedPages::on_fault(const std::byte* address, DomainId side, Moved& moved) {
    const std::size_t index = static_cast<std::size_t>(address - base_) / shared_block_bytes;
    Block& block = blocks_[index];
    if (block.accessible)
        return; // another thread resolved it meanwhile
    const bool want_device = side == device_.id();
    if ((block.device != nullptr) != want_device)
        (void)move(index, want_device, moved);
    // Where the block could not move, it is reached where it is.
    if (!block.accessible)
        protect(index, 1, true);
}

void SharedPages::apply_phase(bool device_phase) {
    // Runs of blocks that change to the same protection: one call each.
    std::size_t run_start = 0;
    std::size_t run_length = 0;
    bool run_accessible = false;
    for (std::size_t i = 0; i <= blocks_.size(); ++i) {
        bool change = false;
        bool accessible = false;
        if (i < blocks_.size()) {
            accessible = (blocks_[i].device != nullptr) == device_phase;
            change = blocks_[i].accessible != accessible;
        }
        if (change && run_length != 0 && accessible == run_accessible &&
            run_start + run_length == i) {
            ++run_length;
            continue;
        }
        protect(run_start, run_length, run_accessible);
        run_length = 0;
        if (change) {
            run_start = i;
            run_length = 1;
            run_accessible = accessible;
        }
    }
}

void SharedPages::migrate(std::size_t offset, std::size_t size, bool to_device) {
    if (offset >= size_ || size == 0)
        return;
    const std::size_t first = offset / shared_block_bytes;
    const std::size_t last = (offset + std::min(size, size_ - offset) - 1) / shared_block_bytes;
    const std::uint64_t start = support::monotonic_ns();
    Moved moved;
    {
        Registry& r = registry();
        RegistryLock lock;
        ensure_handler_locked();
        const DomainId domain = device_.id();
        const bool device_phase = domain < r.running_kernels.size() && r.running_kernels[domain];
        for (std::size_t i = first; i <= last; ++i) {
            Block& block = blocks_[i];
            if ((block.device != nullptr) == to_device)
                continue;
            // Nobody may touch the block while it moves.
            if (block.accessible)
                protect(i, 1, false);
            (void)move(i, to_device, moved);
            const bool accessible = (block.device != nullptr) == device_phase;
            if (block.accessible != accessible)
                protect(i, 1, accessible);
        }
    }
    USMCL_LOG(memory, "shared allocation %p: %zu bytes moved to %s, %zu to the host",
              static_cast<void*>(base_), moved.to_device, device_.name().c_str(), moved.to_host);
    if (moved.to_device)
        hold_to_cost_model(host_, device_, moved.to_device, start);
    if (moved.to_host)
        hold_to_cost_model(device_, host_, moved.to_host, start);
}

DeviceAccess::DeviceAccess(DomainId domain) : domain_(domain) {
    Registry& r = registry();
    if (domain == 0 || r.count.load(std::memory_order_acquire) == 0)
        return;
    active_ = true;
    RegistryLock lock;
    ensure_handler_locked();
    if (r.running_kernels.size() <= domain)
        r.running_kernels.resize(domain + 1, 0);
    if (r.running_kernels[domain]++ != 0)
        return;
    for (SharedPages* pages : r.allocations)
        if (pages->device_domain() == domain)
            pages->apply_phase(true);
}

DeviceAccess::~DeviceAccess() {
    if (!active_)
        return;
    Registry& r = registry();
    RegistryLock lock;
    ensure_handler_locked();
    if (--r.running_kernels[domain_] != 0)
        return;
    for (SharedPages* pages : r.allocations)
        if (pages->device_domain() == domain_)
            pages->apply_phase(false);
}

} // namespace usmcl::memory
