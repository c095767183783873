// Commands that use memory objects: migration planning at enqueue time.
#include "core/platform.hpp"
#include "core/queue.hpp"
#include "runtime/thread_pool.hpp"
#include "support/cl_strings.hpp"
#include "support/clock.hpp"
#include "support/log.hpp"
#include "support/small_vector.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace usmcl::core {
namespace {

// Memory objects of a command whose lists need no allocation.
constexpr size_t inline_uses = 4;

void prune(std::vector<Ref<Event>>& events) {
    std::erase_if(events, [](const Ref<Event>& event) { return event->is_terminal(); });
}

} // namespace

void finish_host_transfer(const memory::Domain& domain, bool to_host, std::uint64_t size,
                          std::uint64_t start) {
    if (domain.is_host())
        return;
    const memory::Domain& host = *Platform::instance().memory_domains()[0];
    if (to_host)
        memory::hold_to_cost_model(domain, host, size, start);
    else
        memory::hold_to_cost_model(host, domain, size, start);
    domain.count_host_transfer(to_host, size);
}

memory::DomainId CommandQueue::memory_domain() const {
    return device_->memory_domain();
}

const memory::Domain& CommandQueue::domain() const {
    return *Platform::instance().memory_domains()[device_->memory_domain()];
}

// A hidden command that copies bytes between two instances; it waits for
// whatever made its source up to date.
Event* CommandQueue::enqueue_copy(const memory::PlannedCopy& copy,
                                  MemObject::Migrations& migrations,
                                  std::span<Event* const> wait_list) {
    const auto& domains = Platform::instance().memory_domains();
    auto work = [from = copy.from, to = copy.to, size = copy.size, pool = &device_->pool(),
                 source = domains[copy.copy.from].get(),
                 target = domains[copy.copy.to].get()]() -> cl_int {
        const std::uint64_t start = support::monotonic_ns();
        runtime::parallel_copy(*pool, to, from, size);
        memory::hold_to_cost_model(*source, *target, size, start);
        memory::Domain::count_copy(*source, *target, size);
        USMCL_LOG(memory, "migrated %zu bytes from %s to %s", size, source->name().c_str(),
                  target->name().c_str());
        return CL_SUCCESS;
    };
    auto* event = new Event(*this, CL_COMMAND_MIGRATE_MEM_OBJECTS, std::move(work), false);
    // The copy reads what the command would read: it waits for everything
    // the command waits for (its wait list and the queue's order), and for
    // the last writer of the buffer.
    for (Event* dependency : wait_list)
        event->add_dependency(*dependency);
    {
        std::lock_guard lock(mutex_);
        if (in_order() && last_)
            event->add_dependency(*last_);
        else if (!in_order() && last_barrier_)
            event->add_dependency(*last_barrier_);
    }
    if (migrations.last_writer)
        event->add_dependency(*migrations.last_writer);
    for (const Ref<Event>& earlier : migrations.copies_into[copy.copy.from])
        event->add_dependency(*earlier);
    migrations.copies_into[copy.copy.to].emplace_back(event);
    event->submit(&device_->pool());
    event->release_api(); // the migrations list holds it
    return event;
}

Result<Event*> CommandQueue::enqueue_with_memory(cl_command_type type,
                                                 std::span<Event* const> wait_list,
                                                 std::span<const MemoryUse> uses,
                                                 WorkFactory make_work, memory::DomainId domain,
                                                 bool blocking) {
    if (support::log_enabled(support::LogCategory::memory))
        for (const MemoryUse& use : uses)
            support::log_write(support::LogCategory::memory,
                               "command %s uses memory object %p: %zu bytes at %zu, %s",
                               support::command_name(type), static_cast<void*>(use.mem), use.size,
                               use.offset, memory::access_name(use.access));
    // Lock every storage involved, in address order, for the whole plan.
    // The lists live on the stack for the usual few memory objects.
    support::SmallVector<MemObject*, inline_uses> roots;
    roots.reserve(uses.size());
    for (const MemoryUse& use : uses)
        roots.push_back(&use.mem->root());
    std::sort(roots.begin(), roots.end());
    roots.truncate(static_cast<size_t>(std::unique(roots.begin(), roots.end()) - roots.begin()));
    support::SmallVector<std::unique_lock<std::mutex>, inline_uses> locks;
    locks.reserve(roots.size());
    for (MemObject* root : roots)
        locks.emplace_back(root->storage_mutex());

    // Every instance first: a failure then leaves every plan as it was.
    for (const MemoryUse& use : uses)
        if (!use.mem->root().storage().instance(domain))
            return Status(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                          "no room for a buffer instance in the device's memory");

    support::SmallVector<std::byte*, inline_uses> addresses;
    std::vector<Ref<Event>> migration_dependencies;
    addresses.reserve(uses.size());
    bool multi_domain = false;
    for (const MemoryUse& use : uses) {
        MemObject& root = use.mem->root();
        memory::Storage& storage = root.storage();
        const size_t begin = use.mem->offset() + use.offset;
        auto planned = storage.prepare(domain, {begin, begin + use.size}, use.access);
        if (!planned)
            return Status(CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate a buffer instance");
        addresses.push_back(storage.instance(domain) + begin);
        if (storage.single_domain())
            continue;
        multi_domain = true;
        MemObject::Migrations& migrations = root.migrations();
        for (auto& list : migrations.copies_into)
            prune(list);
        for (const memory::PlannedCopy& copy : *planned)
            (void)enqueue_copy(copy, migrations, wait_list);
        for (const Ref<Event>& copy : migrations.copies_into[domain])
            migration_dependencies.push_back(copy);
    }

    auto* event = new Event(
        *this, type, make_work(std::span<std::byte* const>(addresses.data(), addresses.size())),
        false);
    try {
        for (const MemoryUse& use : uses)
            event->hold(*use.mem);
    } catch (...) {
        event->release_api(); // never submitted: its only reference
        throw;
    }
    {
        std::lock_guard lock(mutex_);
        for (Event* dependency : wait_list)
            event->add_dependency(*dependency);
        for (const Ref<Event>& dependency : migration_dependencies)
            event->add_dependency(*dependency);
        add_order_dependencies(*event, Kind::command, wait_list.empty());
        remember(*event);
    }
    if (multi_domain) {
        for (const MemoryUse& use : uses)
            if (use.access != memory::Access::read)
                use.mem->migrations().last_writer = Ref<Event>(event);
    }
    locks.clear();
    event->submit(&device_->pool(), blocking);
    return event;
}

} // namespace usmcl::core
