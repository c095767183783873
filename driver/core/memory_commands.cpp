// Commands that use memory objects: migration planning at enqueue time.
#include "core/platform.hpp"
#include "core/queue.hpp"
#include "runtime/thread_pool.hpp"

#include <algorithm>
#include <cstring>

namespace usmcl::core {
namespace {

void prune(std::vector<Ref<Event>>& events) {
    std::erase_if(events, [](const Ref<Event>& event) { return event->is_terminal(); });
}

} // namespace

memory::DomainId CommandQueue::memory_domain() const {
    return device_->memory_domain();
}

// A hidden command that copies bytes between two instances; it waits for
// whatever made its source up to date.
Event* CommandQueue::enqueue_copy(const memory::PlannedCopy& copy,
                                  MemObject::Migrations& migrations,
                                  std::span<Event* const> wait_list) {
    auto work = [from = copy.from, to = copy.to, size = copy.size,
                 pool = &device_->pool()]() -> cl_int {
        runtime::parallel_copy(*pool, to, from, size);
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
                                                 const WorkFactory& make_work,
                                                 memory::DomainId domain, bool blocking) {
    // Lock every storage involved, in address order, for the whole plan.
    // Sized once: a growing vector reallocates at every use of a copy.
    std::vector<MemObject*> roots;
    roots.reserve(uses.size());
    for (const MemoryUse& use : uses)
        roots.push_back(&use.mem->root());
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    std::vector<std::unique_lock<std::mutex>> locks;
    locks.reserve(roots.size());
    for (MemObject* root : roots)
        locks.emplace_back(root->storage_mutex());

    std::vector<std::byte*> addresses;
    std::vector<Ref<Event>> migration_dependencies;
    std::vector<Ref<MemObject>> keep_alive;
    addresses.reserve(uses.size());
    keep_alive.reserve(uses.size());
    bool multi_domain = false;
    for (const MemoryUse& use : uses) {
        MemObject& root = use.mem->root();
        memory::Storage& storage = root.storage();
        const size_t begin = use.mem->offset() + use.offset;
        auto planned = storage.prepare(domain, {begin, begin + use.size}, use.access);
        if (!planned)
            return Status(CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate a buffer instance");
        addresses.push_back(storage.instance(domain) + begin);
        keep_alive.emplace_back(use.mem);
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

    Event::Work work = make_work(addresses);
    auto* event = new Event(
        *this, type,
        [work = std::move(work), keep_alive = std::move(keep_alive)]() { return work(); }, false);
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
