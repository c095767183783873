// A non-owning reference to a callable: what a function that calls a
// callback before it returns takes instead of a std::function (which may
// allocate to copy the callable). The callable must outlive the reference.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace usmcl::support {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
public:
    template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_invocable_r_v<R, F&, Args...>) FunctionRef(F&& callable)
    noexcept { // NOLINT(google-explicit-constructor): like std::function
        using Target = std::remove_reference_t<F>;
        if constexpr (std::is_function_v<Target>) {
            target_.function = reinterpret_cast<void (*)()>(&callable);
            call_ = [](Pointer target, Args... args) -> R {
                return reinterpret_cast<Target*>(target.function)(std::forward<Args>(args)...);
            };
        } else {
            target_.object = const_cast<void*>(static_cast<const void*>(std::addressof(callable)));
            call_ = [](Pointer target, Args... args) -> R {
                return (*static_cast<Target*>(target.object))(std::forward<Args>(args)...);
            };
        }
    }

    R operator()(Args... args) const { return call_(target_, std::forward<Args>(args)...); }

private:
    union Pointer {
        void* object;
        void (*function)();
    };
    Pointer target_;
    R (*call_)(Pointer, Args...);
};

} // namespace usmcl::support
