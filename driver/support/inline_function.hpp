// A move-only callable with room for Capacity bytes of captures inside the
// object: the work of a command is stored in its event without an
// allocation of its own (std::function keeps only 16 bytes inline). Larger
// callables, or ones whose move may throw, go to the heap.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace usmcl::support {

template <class Signature, std::size_t Capacity>
class InlineFunction;

template <class R, class... Args, std::size_t Capacity>
class InlineFunction<R(Args...), Capacity> {
public:
    InlineFunction() noexcept = default;
    InlineFunction(std::nullptr_t) noexcept {} // NOLINT(google-explicit-constructor)

    template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, InlineFunction> &&
             !std::is_same_v<std::remove_cvref_t<F>, std::nullptr_t> &&
             std::is_invocable_r_v<R, std::decay_t<F>&, Args...>)
        InlineFunction(F&& callable) { // NOLINT(google-explicit-constructor): like std::function
        using Stored = std::decay_t<F>;
        if constexpr (fits_inline<Stored>()) {
            ::new (static_cast<void*>(storage_)) Stored(std::forward<F>(callable));
            ops_ = &inline_ops<Stored>;
        } else {
            Stored* object = new Stored(std::forward<F>(callable));
            ::new (static_cast<void*>(storage_)) Stored*(object);
            ops_ = &heap_ops<Stored>;
        }
    }

    InlineFunction(InlineFunction&& other) noexcept { take(other); }
    InlineFunction& operator=(InlineFunction&& other) noexcept {
        if (this != &other) {
            reset();
            take(other);
        }
        return *this;
    }
    InlineFunction& operator=(std::nullptr_t) noexcept {
        reset();
        return *this;
    }
    InlineFunction(const InlineFunction&) = delete;
    InlineFunction& operator=(const InlineFunction&) = delete;
    ~InlineFunction() { reset(); }

    explicit operator bool() const noexcept { return ops_ != nullptr; }

    // Calls the callable; it must not be empty.
    R operator()(Args... args) { return ops_->call(storage_, std::forward<Args>(args)...); }

    // Whether callables of type F are stored without an allocation.
    template <class F>
    static constexpr bool fits_inline() {
        return sizeof(F) <= Capacity && alignof(F) <= alignof(std::max_align_t) &&
               std::is_nothrow_move_constructible_v<F>;
    }

    void reset() noexcept {
        if (ops_) {
            ops_->destroy(storage_);
            ops_ = nullptr;
        }
    }

private:
    struct Ops {
        R (*call)(void* storage, Args&&... args);
        // Move-constructs the callable into to and destroys it at from.
        void (*relocate)(void* from, void* to) noexcept;
        void (*destroy)(void* storage) noexcept;
    };

    template <class F>
    static constexpr Ops inline_ops{
        [](void* storage, Args&&... args) -> R {
            return (*static_cast<F*>(storage))(std::forward<Args>(args)...);
        },
        [](void* from, void* to) noexcept {
            F* source = static_cast<F*>(from);
            ::new (to) F(std::move(*source));
            source->~F();
        },
        [](void* storage) noexcept { static_cast<F*>(storage)->~F(); },
    };
    template <class F>
    static constexpr Ops heap_ops{
        [](void* storage, Args&&... args) -> R {
            return (**static_cast<F**>(storage))(std::forward<Args>(args)...);
        },
        [](void* from, void* to) noexcept { ::new (to) F*(*static_cast<F**>(from)); },
        [](void* storage) noexcept { delete *static_cast<F**>(storage); },
    };

    void take(InlineFunction& other) noexcept {
        if (other.ops_) {
            other.ops_->relocate(other.storage_, storage_);
            ops_ = std::exchange(other.ops_, nullptr);
        }
    }

    static_assert(Capacity >= sizeof(void*), "room for at least a pointer to a heap callable");
    const Ops* ops_ = nullptr;
    alignas(std::max_align_t) std::byte storage_[Capacity];
};

} // namespace usmcl::support
