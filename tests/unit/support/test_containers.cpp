// The small containers of a command: support::SmallVector (inline elements,
// then the heap), support::InlineFunction (inline captures, then the heap)
// and support::FunctionRef. Elements and captures count their live copies,
// so a leak or a double destruction shows as a wrong count.
#include "support/function_ref.hpp"
#include "support/inline_function.hpp"
#include "support/small_vector.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>

namespace {

using usmcl::support::FunctionRef;
using usmcl::support::InlineFunction;
using usmcl::support::SmallVector;

// Counts the live instances; carries a value.
struct Counted {
    static inline int live = 0;
    int value = 0;
    explicit Counted(int v) : value(v) { ++live; }
    Counted(const Counted& other) : value(other.value) { ++live; }
    Counted(Counted&& other) noexcept : value(other.value) {
        other.value = -1;
        ++live;
    }
    Counted& operator=(const Counted&) = default;
    Counted& operator=(Counted&& other) noexcept {
        value = other.value;
        other.value = -1;
        return *this;
    }
    ~Counted() { --live; }
};

template <class Vector>
std::vector<int> values_of(const Vector& vector) {
    std::vector<int> values;
    for (const Counted& element : vector)
        values.push_back(element.value);
    return values;
}

} // namespace

TEST_CASE("SmallVector keeps its first elements inline, then grows on the heap", "[runtime]") {
    Counted::live = 0;
    {
        SmallVector<Counted, 2> vector;
        CHECK(vector.empty());
        vector.emplace_back(1);
        vector.emplace_back(2);
        CHECK(vector.capacity() == 2);
        const Counted* inline_data = vector.data();
        vector.emplace_back(3); // grows
        CHECK(vector.capacity() >= 3);
        CHECK(vector.data() != inline_data);
        for (int i = 4; i <= 10; ++i)
            vector.push_back(Counted(i));
        CHECK(vector.size() == 10);
        CHECK(Counted::live == 10);
        CHECK(values_of(vector) == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        // An element of the vector itself, appended while it grows.
        SmallVector<Counted, 2> self;
        self.emplace_back(7);
        self.emplace_back(8);
        self.push_back(self[0]);
        CHECK(values_of(self) == std::vector<int>{7, 8, 7});
    }
    CHECK(Counted::live == 0);
}

TEST_CASE("SmallVector moves inline and heap contents and erases in order", "[runtime]") {
    Counted::live = 0;
    {
        SmallVector<Counted, 3> small;
        small.emplace_back(1);
        small.emplace_back(2);
        SmallVector<Counted, 3> moved(std::move(small));
        CHECK(small.empty());
        CHECK(values_of(moved) == std::vector<int>{1, 2});

        SmallVector<Counted, 3> large;
        for (int i = 0; i < 6; ++i)
            large.emplace_back(i);
        const Counted* heap = large.data();
        moved = std::move(large);
        CHECK(moved.data() == heap); // the heap block changes hands
        CHECK(large.empty());
        CHECK(large.capacity() == 3);
        CHECK(Counted::live == 6);

        CHECK(moved.erase_if([](const Counted& c) { return c.value % 2 == 1; }) == 3);
        CHECK(values_of(moved) == std::vector<int>{0, 2, 4});
        CHECK(Counted::live == 3);
        large.emplace_back(9); // a moved-from vector is usable
        CHECK(values_of(large) == std::vector<int>{9});
        moved.clear();
        CHECK(moved.empty());
        CHECK(Counted::live == 1);
    }
    CHECK(Counted::live == 0);
}

TEST_CASE("InlineFunction stores small captures inline and large ones on the heap", "[runtime]") {
    using Function = InlineFunction<int(int), 32>;
    Counted::live = 0;
    {
        Function empty;
        CHECK_FALSE(empty);
        auto small_callable = [c = Counted(5)](int x) { return c.value + x; };
        static_assert(Function::fits_inline<decltype(small_callable)>());
        Function small = std::move(small_callable);
        CHECK(small(1) == 6);
        std::array<char, 100> big_capture{};
        big_capture[99] = 3;
        auto large_callable = [big_capture, c = Counted(10)](int x) {
            return big_capture[99] + c.value + x;
        };
        static_assert(!Function::fits_inline<decltype(large_callable)>());
        Function large = std::move(large_callable);
        CHECK(large(2) == 15);
        CHECK(Counted::live == 4); // the moved-from callables still exist

        Function moved = std::move(small);
        CHECK_FALSE(small);
        CHECK(moved(2) == 7);
        moved = std::move(large);
        CHECK(moved(0) == 13);
        CHECK(Counted::live == 3);
        moved = nullptr;
        CHECK_FALSE(moved);
        CHECK(Counted::live == 2);

        // Move-only captures and mutable callables.
        InlineFunction<int(), 32> counter = [n = std::make_unique<int>(0)]() mutable {
            return ++*n;
        };
        CHECK(counter() == 1);
        CHECK(counter() == 2);
        InlineFunction<std::string(), 16> text = [s = std::string(64, 'x')] { return s; };
        CHECK(text().size() == 64);
    }
    CHECK(Counted::live == 0);
}

TEST_CASE("FunctionRef calls the callable it refers to", "[runtime]") {
    int calls = 0;
    auto add = [&calls](int a, int b) {
        ++calls;
        return a + b;
    };
    FunctionRef<int(int, int)> ref = add;
    CHECK(ref(2, 3) == 5);
    FunctionRef<int(int, int)> copy = ref; // refers to add, not to ref
    CHECK(copy(4, 5) == 9);
    CHECK(calls == 2);
    auto call = [](FunctionRef<void(size_t)> body) {
        for (size_t i = 0; i < 3; ++i)
            body(i);
    };
    size_t sum = 0;
    call([&](size_t i) { sum += i; });
    CHECK(sum == 3);
}
